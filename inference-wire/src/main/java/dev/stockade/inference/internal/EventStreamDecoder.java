package dev.stockade.inference.internal;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import software.amazon.eventstream.Message;

/**
 * Cuts AWS event-stream frames out of a byte stream fed in arbitrary slices and decodes each with the
 * eventstream library ({@link Message#decode}, which checks both CRCs). The library's own incremental
 * {@code MessageDecoder} is not used because it allocates 2 MiB per stream up front and accepts frames up to
 * 24 MiB; here a frame's buffer is its own declared length, refused past {@code maxFrameBytes}. Not thread-safe.
 */
public final class EventStreamDecoder {

    /** Total length, headers length and prelude CRC: 12 bytes; the smallest frame adds a 4-byte message CRC. */
    private static final int PRELUDE_BYTES = 12;
    private static final int MIN_FRAME_BYTES = 16;

    private final Consumer<Message> listener;
    private final int maxFrameBytes;
    private final byte[] prelude = new byte[PRELUDE_BYTES];
    private int preludeLength;
    private byte[] frame;
    private int frameLength;
    private boolean failed;
    private boolean oversized;

    public EventStreamDecoder(Consumer<Message> listener, int maxFrameBytes) {
        this.listener = listener;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** Whether a frame failed its checks; the decoder ignores input from then on. */
    public boolean malformed() {
        return failed;
    }

    /** Whether a frame declared a length past the bound; the decoder ignores input from then on. */
    public boolean oversized() {
        return oversized;
    }

    /** Whether part of a frame is held (at the end of the body: an incomplete frame). */
    public boolean pending() {
        return preludeLength > 0;
    }

    /** Feeds the next slice. */
    public void feed(byte[] bytes, int offset, int length) {
        int at = offset;
        int end = offset + length;
        while (at < end && !failed && !oversized) {
            if (frame == null) {
                int take = Math.min(PRELUDE_BYTES - preludeLength, end - at);
                System.arraycopy(bytes, at, prelude, preludeLength, take);
                preludeLength += take;
                at += take;
                if (preludeLength == PRELUDE_BYTES) {
                    startFrame();
                }
            } else {
                int take = Math.min(frame.length - frameLength, end - at);
                System.arraycopy(bytes, at, frame, frameLength, take);
                frameLength += take;
                at += take;
                if (frameLength == frame.length) {
                    finishFrame();
                }
            }
        }
    }

    private void startFrame() {
        long total = ByteBuffer.wrap(prelude).getInt() & 0xFFFF_FFFFL;
        if (total > maxFrameBytes) {
            oversized = true;
            return;
        }
        if (total < MIN_FRAME_BYTES) {
            failed = true;
            return;
        }
        frame = new byte[(int) total];
        System.arraycopy(prelude, 0, frame, 0, PRELUDE_BYTES);
        frameLength = PRELUDE_BYTES;
    }

    private void finishFrame() {
        byte[] whole = frame;
        frame = null;
        frameLength = 0;
        preludeLength = 0;
        Message message;
        try {
            message = Message.decode(ByteBuffer.wrap(whole));
        } catch (RuntimeException badChecksumOrHeaders) {
            failed = true;
            return;
        }
        listener.accept(message);
    }
}
