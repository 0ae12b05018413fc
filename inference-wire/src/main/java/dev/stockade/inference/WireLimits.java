package dev.stockade.inference;

/**
 * Memory bounds of the readers, per instance rather than static so a host can set them from configuration.
 *
 * @param maxBodyBytes  largest request body, or whole non-streamed answer, read into memory: stops a client
 *                      or upstream from making the proxy hold an unbounded document
 * @param maxEventBytes largest single SSE line, SSE event or event-stream frame held while a stream passes
 *                      through; a longer one ends metering as a fault instead of growing a buffer
 */
public record WireLimits(int maxBodyBytes, int maxEventBytes) {

    /** 32 MiB bodies, 1 MiB events. */
    public static final WireLimits DEFAULT = new WireLimits(32 * 1024 * 1024, 1024 * 1024);

    public WireLimits {
        if (maxBodyBytes <= 0 || maxEventBytes <= 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }
}
