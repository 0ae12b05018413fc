package dev.stockade.pii;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Restores placeholders in a UTF-8 byte stream whose chunks may split a character as well as a placeholder:
 * incomplete byte sequences wait for the next chunk, then the text goes through a {@link StreamRestorer}.
 * Malformed bytes become U+FFFD. Not thread-safe: one per stream.
 */
public final class ByteStreamRestorer {

    private final StreamRestorer text;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private ByteBuffer carry = ByteBuffer.allocate(0);

    ByteStreamRestorer(StreamRestorer text) {
        this.text = text;
    }

    /** Restored UTF-8 bytes safe to emit now. */
    public byte[] push(byte[] chunk) {
        ByteBuffer in = ByteBuffer.allocate(carry.remaining() + chunk.length).put(carry).put(chunk).flip();
        CharBuffer chars = CharBuffer.allocate(in.remaining() + 1);
        decoder.decode(in, chars, false);
        carry = ByteBuffer.allocate(in.remaining()).put(in).flip();
        return text.push(chars.flip()).getBytes(StandardCharsets.UTF_8);
    }

    /** Ends the stream: the held-back text, and U+FFFD for a character the stream cut short. */
    public byte[] finish() {
        CharBuffer chars = CharBuffer.allocate(carry.remaining() + 2);
        decoder.decode(carry, chars, true);
        decoder.flush(chars);
        String tail = text.push(chars.flip()) + text.finish();
        return tail.getBytes(StandardCharsets.UTF_8);
    }
}
