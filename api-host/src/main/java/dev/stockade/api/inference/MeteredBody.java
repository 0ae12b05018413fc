package dev.stockade.api.inference;

import dev.stockade.inference.StreamEnd;
import dev.stockade.inference.StreamMeter;
import dev.stockade.inference.StreamReading;
import dev.stockade.inference.TokenUsage;
import dev.stockade.inference.TruncationEvent;
import dev.stockade.inference.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A model's answer on its way to the caller, metered as it passes and never held whole. A stream that ends without
 * its format's terminal event (the upstream cut it, a halt closed it, a read failed) is finished for the caller with
 * the provider's own error event and then an aborted connection, the one ending every SDK reports as a failure
 * (a clean end reads as success). The call ends exactly once ({@link Ending}), whether the body ended, failed or the
 * caller went away, with the usage seen so far.
 */
final class MeteredBody extends BlockStream {
    /** How the answer ended, for settlement and the audit trail. */
    record Ending(Optional<TokenUsage> usage, Optional<String> model, boolean truncated, boolean callerGone,
                  boolean unreadable) {
    }

    /** Thrown to the server after the error event: the connection is aborted, not closed cleanly. */
    static final class Truncated extends IOException {
        Truncated() {
            super("the upstream stream was cut before its final event: the caller's connection is aborted");
        }
    }

    private final InputStream upstream;
    private final WireFormat format;
    private final StreamMeter stream;
    private final Function<byte[], UsageRead> whole;
    private final ByteArrayOutputStream held;
    private final int holdLimit;
    private final Consumer<Ending> onEnd;
    private final AtomicBoolean ended = new AtomicBoolean();
    private byte[] tail;
    private int tailAt;

    /** What a whole (unstreamed) body's meter found. */
    record UsageRead(Optional<TokenUsage> usage, Optional<String> model, boolean readable) {
    }

    private MeteredBody(InputStream upstream, WireFormat format, StreamMeter stream,
                        Function<byte[], UsageRead> whole, int holdLimit, Consumer<Ending> onEnd) {
        this.upstream = upstream;
        this.format = format;
        this.stream = stream;
        this.whole = whole;
        this.holdLimit = holdLimit;
        this.held = whole == null ? null : new ByteArrayOutputStream();
        this.onEnd = onEnd;
    }

    /** A streamed answer metered by {@code meter}. */
    static MeteredBody streamed(InputStream upstream, WireFormat format, StreamMeter meter, Consumer<Ending> onEnd) {
        return new MeteredBody(upstream, format, meter, null, 0, onEnd);
    }

    /**
     * A whole answer: its bytes pass on as they arrive and a copy of at most {@code holdLimit} bytes is read by
     * {@code meter} at the end (a larger body is unreadable: the caller settles at the reservation).
     */
    static MeteredBody whole(InputStream upstream, WireFormat format, Function<byte[], UsageRead> meter,
                             int holdLimit, Consumer<Ending> onEnd) {
        return new MeteredBody(upstream, format, null, meter, holdLimit, onEnd);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (tail != null) {
            return fromTail(b, off, len);
        }
        int n;
        try {
            n = upstream.read(b, off, len);
        } catch (IOException cut) {
            return cut(b, off, len, cut);
        }
        if (n > 0) {
            pass(b, off, n);
            return n;
        }
        if (n < 0) {
            return atEnd(b, off, len);
        }
        return n;
    }

    private void pass(byte[] b, int off, int n) {
        if (stream != null) {
            stream.feed(b, off, n);
        } else if (held.size() <= holdLimit) {
            held.write(b, off, Math.min(n, holdLimit + 1 - held.size()));
        }
    }

    private int atEnd(byte[] b, int off, int len) throws IOException {
        if (stream == null) {
            UsageRead read = held.size() > holdLimit ? new UsageRead(Optional.empty(), Optional.empty(), false)
                    : whole.apply(held.toByteArray());
            end(new Ending(read.usage(), read.model(), false, false, !read.readable()));
            return -1;
        }
        StreamReading reading = stream.finish();
        if (reading.end() == StreamEnd.TRUNCATED) {
            return truncate(b, off, len, reading);
        }
        end(new Ending(reading.usage(), reading.model(), false, false, false));
        return -1;
    }

    /** A read failed (the upstream reset, a halt closed it): a stream gets its error event, a whole body aborts. */
    private int cut(byte[] b, int off, int len, IOException cause) throws IOException {
        if (stream == null) {
            end(new Ending(Optional.empty(), Optional.empty(), true, false, true));
            throw cause;
        }
        return truncate(b, off, len, stream.reading());
    }

    private int truncate(byte[] b, int off, int len, StreamReading reading) throws IOException {
        end(new Ending(reading.usage(), reading.model(), true, false, false));
        tail = TruncationEvent.bytes(format, reading);
        return fromTail(b, off, len);
    }

    private int fromTail(byte[] b, int off, int len) throws IOException {
        if (tailAt >= tail.length) {
            throw new Truncated();
        }
        int n = Math.min(len, tail.length - tailAt);
        System.arraycopy(tail, tailAt, b, off, n);
        tailAt += n;
        return n;
    }

    /** The server closes the body at its end, on a failure, or when the caller went away first. */
    @Override
    public void close() throws IOException {
        try {
            upstream.close();
        } finally {
            if (stream != null) {
                StreamReading r = stream.reading();
                end(new Ending(r.usage(), r.model(), false, true, false));
            } else {
                end(new Ending(Optional.empty(), Optional.empty(), false, true, true));
            }
        }
    }

    private void end(Ending ending) {
        if (ended.compareAndSet(false, true)) {
            onEnd.accept(ending);
        }
    }
}
