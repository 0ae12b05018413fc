package dev.stockade.inference;

import dev.stockade.inference.internal.EventStreamDecoder;
import dev.stockade.inference.internal.Json;
import dev.stockade.inference.internal.SseDecoder;
import dev.stockade.inference.internal.StreamEvents;
import java.util.Objects;
import java.util.Optional;

/**
 * Meters one streamed answer as it passes through the proxy: fed the upstream body slice by slice, it tracks
 * the usage reported so far, the model, and whether the stream ended with its normal terminal event. Memory is
 * bounded by {@link WireLimits#maxEventBytes()}; bad upstream bytes never throw, they become a
 * {@link StreamFault}. Not thread-safe: one per stream, fed from one thread at a time.
 */
public final class StreamMeter {

    private final StreamEvents events;
    private final SseDecoder sse;
    private final EventStreamDecoder frames;
    private boolean finished;
    private boolean incomplete;

    private StreamMeter(WireFormat format, WireLimits limits) {
        this.events = new StreamEvents(format, Json.mapper(limits.maxEventBytes()));
        if (format.eventStreamFramed()) {
            this.frames = new EventStreamDecoder(events::frame, limits.maxEventBytes());
            this.sse = null;
        } else {
            this.sse = new SseDecoder(events::sse, limits.maxEventBytes());
            this.frames = null;
        }
    }

    /**
     * A meter for a stream of {@code format}. Bedrock formats expect AWS event-stream frames, the others
     * server-sent events; {@link WireFormat#OPENAI_EMBEDDINGS} never streams and is refused, and so is
     * {@link WireFormat#OPENAI_REALTIME}, whose events arrive as WebSocket messages ({@link RealtimeUsage}).
     */
    public static StreamMeter start(WireFormat format, WireLimits limits) {
        Objects.requireNonNull(limits);
        if (format == WireFormat.OPENAI_EMBEDDINGS) {
            throw new IllegalArgumentException("embeddings never stream");
        }
        if (format == WireFormat.OPENAI_REALTIME) {
            throw new IllegalArgumentException("realtime events are WebSocket messages: read each with RealtimeUsage");
        }
        return new StreamMeter(format, limits);
    }

    /** Feeds the next slice of the upstream body, exactly as it will be passed on. */
    public void feed(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (finished) {
            throw new IllegalStateException("stream already finished");
        }
        if (sse != null) {
            sse.feed(bytes, offset, length);
        } else {
            frames.feed(bytes, offset, length);
        }
    }

    /** Feeds a whole array. */
    public void feed(byte[] bytes) {
        feed(bytes, 0, bytes.length);
    }

    /** The upstream body ended (cleanly or not): the final reading. Half an event left over is a fault. */
    public StreamReading finish() {
        if (!finished) {
            finished = true;
            incomplete = sse != null ? sse.pending() : frames.pending();
        }
        return reading();
    }

    /** What the stream has shown so far. */
    public StreamReading reading() {
        return new StreamReading(events.tally().usage(), events.model(), events.terminal(), events.error(),
                fault(), events.lastSequence());
    }

    private Optional<StreamFault> fault() {
        boolean oversized = sse != null ? sse.oversized() : frames.oversized();
        if (oversized) {
            return Optional.of(StreamFault.OVERSIZED_EVENT);
        }
        if (frames != null && frames.malformed()) {
            return Optional.of(StreamFault.MALFORMED_FRAME);
        }
        if (incomplete) {
            return Optional.of(StreamFault.INCOMPLETE_EVENT);
        }
        return events.malformed() ? Optional.of(StreamFault.MALFORMED_EVENT) : Optional.empty();
    }
}
