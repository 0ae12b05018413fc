package dev.stockade.api.inference;

import java.io.IOException;
import java.io.InputStream;

/** A body stream that works in blocks: the one-byte {@code read()} is a one-byte block read. */
abstract class BlockStream extends InputStream {
    @Override
    public final int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public abstract int read(byte[] b, int off, int len) throws IOException;
}
