package dev.stockade.policy.eval;

import dev.stockade.policy.glob.IpLiteral;

/**
 * The address forms {@link HostName} canonicalises: IPv4 in every {@code inet_aton} form, the IPv6
 * forms that carry an IPv4 address, and RFC 5952 text for the rest.
 */
final class Ipv4Forms {
    private Ipv4Forms() {
    }

    /**
     * An IPv4 address in {@code inet_aton} form: one to four parts, each decimal or {@code 0x} hex, the
     * last filling the remaining bytes ({@code 127.1} is {@code 127.0.0.1}, {@code 2130706433} too).
     * A part with a leading zero is refused: libc and curl read it as octal, Java and others as decimal.
     */
    static ParsedHost parse(String h) {
        String[] parts = h.split("\\.", -1);
        if (parts.length > 4) {
            return new HostName.Refused("the host ends in a number but is not an IPv4 address");
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            long v = part(parts[i]);
            if (v == -2) {
                return new HostName.Refused("an IPv4 part with a leading zero is ambiguous (octal or decimal)");
            }
            if (v < 0) {
                return new HostName.Refused("the host ends in a number but is not an IPv4 address");
            }
            values[i] = v;
        }
        long address = 0;
        for (int i = 0; i < values.length - 1; i++) {
            if (values[i] > 255) {
                return new HostName.Refused("an IPv4 part is above 255");
            }
            address = address << 8 | values[i];
        }
        int restBytes = 5 - values.length;
        long last = values[values.length - 1];
        if (last >= 1L << (8 * restBytes)) {
            return new HostName.Refused("an IPv4 address is out of range");
        }
        address = address << (8 * restBytes) | last;
        return new HostName((address >>> 24 & 0xff) + "." + (address >>> 16 & 0xff) + "." + (address >>> 8 & 0xff)
                + "." + (address & 0xff), HostName.Kind.IPV4);
    }

    /** The part's value; -1 when it is not a number, -2 when it has an ambiguous leading zero. */
    private static long part(String p) {
        if (p.isEmpty() || p.length() > 12) {
            return -1;
        }
        int radix = 10;
        int from = 0;
        if (p.length() >= 2 && p.charAt(0) == '0' && (p.charAt(1) | 0x20) == 'x') {
            radix = 16;
            from = 2;
            if (p.length() == 2) {
                return -1;
            }
        } else if (p.length() > 1 && p.charAt(0) == '0') {
            return -2;
        }
        long v = 0;
        for (int i = from; i < p.length(); i++) {
            char c = p.charAt(i);
            int d = c >= '0' && c <= '9' ? c - '0' : radix == 16 && (c | 0x20) >= 'a' && (c | 0x20) <= 'f'
                    ? (c | 0x20) - 'a' + 10 : -1;
            if (d < 0) {
                return -1;
            }
            v = v * radix + d;
        }
        return v > 0xffffffffL ? -1 : v;
    }

    /** Whether 16 address bytes carry an IPv4 address ({@link IpLiteral#carriesIpv4}). */
    static boolean carriesIpv4(byte[] b) {
        return IpLiteral.carriesIpv4(b);
    }

    /** RFC 5952 text ({@link IpLiteral#rfc5952}). */
    static String rfc5952(byte[] b) {
        return IpLiteral.rfc5952(b);
    }
}
