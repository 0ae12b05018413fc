package dev.stockade.proxy.internal;

import java.nio.charset.StandardCharsets;

/**
 * A small, bounded reader of the server name in a TLS ClientHello (RFC 8446 4.1.2, RFC 6066 3). It
 * reads only the first record; every length is checked against what is there.
 */
public final class ClientHello {

    /** Largest first record accepted (a TLS record is at most 2^14 plus overhead). */
    public static final int MAX_RECORD = 16384 + 5;

    /** What the parser made of the bytes so far. */
    public sealed interface Result permits NeedMore, Malformed, Parsed {
    }

    /** More bytes are needed. */
    public record NeedMore() implements Result {
    }

    /** Not a ClientHello, or broken. */
    public record Malformed(String why) implements Result {
    }

    /** A well-formed ClientHello; {@code sni} is {@code null} when it names no host. */
    public record Parsed(String sni) implements Result {
    }

    private ClientHello() {
    }

    /** Parses {@code len} bytes of {@code b} from the start of a connection. */
    public static Result parse(byte[] data, int len) {
        // INVARIANT: never read past len, whatever the buffer holds beyond it
        byte[] b = data.length == len ? data : java.util.Arrays.copyOf(data, len);
        if (len < 5) {
            return new NeedMore();
        }
        if (b[0] != 0x16) {
            return new Malformed("not a TLS handshake record");
        }
        if (b[1] != 3) {
            return new Malformed("unknown TLS record version");
        }
        int recordLen = u16(b, 3);
        if (recordLen < 4 || recordLen + 5 > MAX_RECORD) {
            return new Malformed("bad TLS record length");
        }
        if (len < 5 + recordLen) {
            return new NeedMore();
        }
        try {
            return parseHandshake(b, 5, 5 + recordLen);
        } catch (IndexOutOfBoundsException e) {
            return new Malformed("truncated ClientHello");
        }
    }

    private static Result parseHandshake(byte[] b, int at, int end) {
        if (b[at] != 1) {
            return new Malformed("first handshake message is not a ClientHello");
        }
        int hsLen = u24(b, at + 1);
        int p = at + 4;
        if (p + hsLen > end) {
            // a ClientHello split over several records is legal but rare; refuse rather than reassemble
            return new Malformed("ClientHello spans several records");
        }
        int hsEnd = p + hsLen;
        p += 2 + 32; // version, random
        p = skip(b, p, 1, hsEnd); // session id
        p = skip(b, p, 2, hsEnd); // cipher suites
        p = skip(b, p, 1, hsEnd); // compression methods
        if (p == hsEnd) {
            return new Parsed(null);
        }
        int extEnd = p + 2 + u16(b, p);
        p += 2;
        check(extEnd <= hsEnd);
        while (p + 4 <= extEnd) {
            int type = u16(b, p);
            int len = u16(b, p + 2);
            p += 4;
            check(p + len <= extEnd);
            if (type == 0) {
                return serverName(b, p, p + len);
            }
            p += len;
        }
        check(p == extEnd);
        return new Parsed(null);
    }

    private static Result serverName(byte[] b, int p, int end) {
        int listEnd = p + 2 + u16(b, p);
        check(listEnd <= end);
        p += 2;
        while (p + 3 <= listEnd) {
            int type = b[p] & 0xff;
            int len = u16(b, p + 1);
            p += 3;
            check(p + len <= listEnd);
            if (type == 0) {
                if (len == 0 || len > 253) {
                    return new Malformed("bad server name length");
                }
                for (int i = p; i < p + len; i++) {
                    int c = b[i] & 0xff;
                    if (c <= 0x20 || c >= 0x7f) {
                        return new Malformed("server name is not a host name");
                    }
                }
                return new Parsed(new String(b, p, len, StandardCharsets.US_ASCII));
            }
            p += len;
        }
        return new Malformed("server_name extension without a host name");
    }

    private static int skip(byte[] b, int p, int lenBytes, int end) {
        int len = lenBytes == 1 ? b[p] & 0xff : u16(b, p);
        int next = p + lenBytes + len;
        check(next <= end);
        return next;
    }

    private static void check(boolean ok) {
        if (!ok) {
            throw new IndexOutOfBoundsException();
        }
    }

    private static int u16(byte[] b, int p) {
        return ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
    }

    private static int u24(byte[] b, int p) {
        return ((b[p] & 0xff) << 16) | ((b[p + 1] & 0xff) << 8) | (b[p + 2] & 0xff);
    }
}
