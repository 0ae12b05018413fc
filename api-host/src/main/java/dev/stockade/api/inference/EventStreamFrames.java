package dev.stockade.api.inference;

import io.micronaut.core.annotation.Nullable;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import software.amazon.eventstream.Message;

/**
 * Cuts AWS event-stream frames out of a body read in arbitrary slices, decoding each with the eventstream library
 * ({@link Message#decode} checks both CRCs). A frame is held only until it is whole. A frame declaring more than
 * {@link #MAX_FRAME} bytes passes through undecoded as it arrives; after a frame that fails its checks nothing can be
 * framed again, so the rest of the body passes as it is. The library's {@code MessageDecoder} is not used: it
 * allocates 2 MiB per stream and accepts 24 MiB frames. Not thread-safe: one per stream.
 */
final class EventStreamFrames {
    /** The largest frame decoded; the same bound as the largest server-sent event restored. */
    static final int MAX_FRAME = SseRestoration.MAX_EVENT;
    /** Total length, headers length and prelude CRC; the smallest frame adds a 4-byte message CRC. */
    private static final int PRELUDE = 12;
    private static final int MIN_FRAME = 16;

    /** A piece of the body: a whole decoded frame with its bytes, or bytes that pass as they are. */
    record Piece(byte[] bytes, @Nullable Message frame) {
    }

    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    /** Bytes of an oversized frame still to pass undecoded. */
    private long passing;
    private boolean broken;

    /** The pieces {@code chunk} completes, in order. */
    List<Piece> push(byte[] chunk) {
        pending.writeBytes(chunk);
        byte[] held = pending.toByteArray();
        pending.reset();
        List<Piece> out = new ArrayList<>();
        int at = 0;
        while (at < held.length) {
            int left = held.length - at;
            if (broken || passing > 0) {
                int take = broken ? left : (int) Math.min(passing, left);
                out.add(new Piece(Arrays.copyOfRange(held, at, at + take), null));
                passing -= broken ? 0 : take;
                at += take;
                continue;
            }
            if (left < PRELUDE) {
                break;
            }
            long total = ByteBuffer.wrap(held, at, 4).getInt() & 0xFFFF_FFFFL;
            if (total < MIN_FRAME) {
                broken = true;
            } else if (total > MAX_FRAME) {
                passing = total;
            } else if (left >= total) {
                out.add(decoded(Arrays.copyOfRange(held, at, at + (int) total)));
                at += (int) total;
            } else {
                break;
            }
        }
        pending.write(held, at, held.length - at);
        return out;
    }

    /** What is still held at the end of the body: an incomplete frame, handed on as it is. */
    byte[] finish() {
        byte[] rest = pending.toByteArray();
        pending.reset();
        return rest;
    }

    private Piece decoded(byte[] bytes) {
        try {
            return new Piece(bytes, Message.decode(ByteBuffer.wrap(bytes)));
        } catch (RuntimeException badChecksumOrHeaders) {
            broken = true;
            return new Piece(bytes, null);
        }
    }
}
