package dev.stockade.api.inference;

import dev.stockade.inference.ChatUsageFilter;
import java.io.IOException;
import java.io.InputStream;

/**
 * A Chat Completions stream as the client asked for it: when the proxy added {@code stream_options.include_usage}
 * to meter the call, the usage-only chunk it brings is withheld from the client ({@link ChatUsageFilter}), so an
 * SDK that did not ask never sees a chunk with no choices. The metered stream underneath still reads every byte.
 */
final class UsageWithheldBody extends BlockStream {
    private final InputStream metered;
    private final ChatUsageFilter filter;
    private byte[] out = new byte[0];
    private int at;
    private boolean finished;

    UsageWithheldBody(InputStream metered, ChatUsageFilter filter) {
        this.metered = metered;
        this.filter = filter;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        byte[] chunk = new byte[Math.max(len, 8192)];
        while (at >= out.length) {
            if (finished) {
                return -1;
            }
            int n = metered.read(chunk, 0, chunk.length);
            if (n < 0) {
                finished = true;
                out = filter.finish();
            } else {
                out = filter.pass(chunk, 0, n);
            }
            at = 0;
        }
        int n = Math.min(len, out.length - at);
        System.arraycopy(out, at, b, off, n);
        at += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        metered.close();
    }
}
