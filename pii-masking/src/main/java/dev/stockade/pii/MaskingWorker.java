package dev.stockade.pii;

import java.time.Duration;

/**
 * Where masking runs for a proxy: bounded in time, with a health the proxy reads. A request whose masking
 * failed fails with a typed {@link MaskingException}; {@link MaskingSettings#onFailure} says what to answer.
 * Implementations: {@link InProcessWorker} (the default) and {@link ProcessWorker} (a separate JVM).
 */
public interface MaskingWorker extends AutoCloseable {

    /**
     * Masks {@code body} within {@code timeout}.
     *
     * @throws MaskingException {@code TIMEOUT}, {@code OVERLOADED}, {@code WORKER_DEAD}, {@code INVALID_BODY} or
     *                          {@code INTERNAL}
     */
    MaskedBody mask(byte[] body, WireFormat format, Duration timeout) throws MaskingException;

    /** Whether the worker can take requests; a dead worker fails every request with {@code WORKER_DEAD}. */
    WorkerHealth health();

    /** Stops the worker; afterwards it is dead. */
    @Override
    void close();

    /** The unit of work a worker runs: {@link PiiMasker#mask(byte[], WireFormat)} in production. */
    @FunctionalInterface
    interface Task {
        MaskedBody mask(byte[] body, WireFormat format) throws MaskingException;
    }
}
