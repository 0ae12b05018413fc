package dev.stockade.policy.eval.internal;

import dev.stockade.policy.glob.IpLiteral;

/**
 * Fast checks on the host of a request that allocate nothing in the common case (an ASCII name or a
 * canonical IPv4 literal); everything else goes through the one host grammar,
 * {@link dev.stockade.policy.eval.HostName}. Names are matched case-insensitively by the index, so they
 * are not lower-cased here.
 */
final class HostName {
    /** Not a host name Stockade will match: denied. */
    static final int INVALID = -1;
    /** Holds non-ASCII characters: must go through IDNA first. */
    static final int NON_ASCII = -2;

    private HostName() {
    }

    /**
     * The end of the name (one trailing dot dropped) when {@code host} is a well-formed ASCII name or
     * IPv4 literal; {@link #INVALID} or {@link #NON_ASCII} otherwise.
     */
    static int nameEnd(String host) {
        if (host == null) {
            return INVALID;
        }
        int end = host.length();
        if (end > 0 && host.charAt(end - 1) == '.') {
            end--;
        }
        if (end == 0 || end > 253) {
            return INVALID;
        }
        int labelStart = 0;
        for (int i = 0; i < end; i++) {
            char c = host.charAt(i);
            if (c == '.') {
                if (i == labelStart || i - labelStart > 63) {
                    return INVALID;
                }
                labelStart = i + 1;
            } else if (c >= 0x80) {
                return NON_ASCII;
            } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_')) {
                return INVALID;
            }
        }
        return end - labelStart > 63 ? INVALID : end;
    }

    /** Whether {@code host[0, end)} is a dotted-quad IPv4 literal ({@link IpLiteral#isIpv4}). */
    static boolean isIpv4(String host, int end) {
        return IpLiteral.isIpv4(host, end);
    }

    /** Whether the host looks like an IPv6 literal ({@link IpLiteral#isIpv6}). */
    static boolean isIpv6(String host) {
        return IpLiteral.isIpv6(host);
    }

    /**
     * Whether the last label (one trailing dot ignored) is a number, decimal or {@code 0x} hex: such a
     * host is an address in some {@code inet_aton} form, never a name (WHATWG URL's "ends in a number").
     */
    static boolean endsInNumber(String host) {
        int end = host.length();
        if (end > 0 && host.charAt(end - 1) == '.') {
            end--;
        }
        int start = host.lastIndexOf('.', end - 1) + 1;
        if (start >= end) {
            return false;
        }
        if (end - start >= 2 && host.charAt(start) == '0' && (host.charAt(start + 1) | 0x20) == 'x') {
            return true;
        }
        for (int i = start; i < end; i++) {
            char c = host.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code host} is an IPv4 dotted quad in canonical form: four decimal parts, no leading zero, each at most 255. */
    static boolean isCanonicalIpv4(String host) {
        int n = host.length();
        if (!isIpv4(host, n)) {
            return false;
        }
        int value = 0;
        int start = 0;
        for (int i = 0; i <= n; i++) {
            char c = i < n ? host.charAt(i) : '.';
            if (c == '.') {
                if (value > 255 || i - start > 1 && host.charAt(start) == '0') {
                    return false;
                }
                value = 0;
                start = i + 1;
            } else {
                value = value * 10 + (c - '0');
            }
        }
        return true;
    }

    /** The normal form through the one host grammar ({@link dev.stockade.policy.eval.HostName}); null when refused. */
    static dev.stockade.policy.eval.HostName parse(String host) {
        return dev.stockade.policy.eval.HostName.parse(host) instanceof dev.stockade.policy.eval.HostName h ? h : null;
    }
}
