package dev.stockade.policy.glob;

/**
 * Allocation-free checks for host text that is an IP literal rather than a name: a domain pattern never matches
 * one as a name, and the decision index sends them to the address path. The full grammar (every {@code inet_aton}
 * form, IPv6 normal form) is policy-eval's {@code HostName}; these checks only tell the shapes apart.
 */
public final class IpLiteral {
    private IpLiteral() {
    }

    /** Whether {@code host[0, end)} is a dotted-quad IPv4 literal (four parts of one to three digits). */
    public static boolean isIpv4(String host, int end) {
        int parts = 0;
        int digits = 0;
        for (int i = 0; i < end; i++) {
            char c = host.charAt(i);
            if (c == '.') {
                if (digits == 0) {
                    return false;
                }
                parts++;
                digits = 0;
            } else if (c >= '0' && c <= '9') {
                digits++;
                if (digits > 3) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return digits > 0 && parts == 3;
    }

    /** Whether the host looks like an IPv6 literal (bracketed or holding a colon). */
    public static boolean isIpv6(String host) {
        return host != null && (host.indexOf(':') >= 0 || host.startsWith("["));
    }

    /**
     * The normal form of an IPv6 literal written without brackets and without a zone: RFC 5952 text, or the
     * dotted quad an IPv4-mapped, IPv4-compatible or NAT64 address carries; {@code null} when it is none.
     */
    public static String canonicalIpv6(String text) {
        if (text.length() < 2 || text.length() > 45 || text.indexOf(':') < 0) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') || c == ':' || c == '.')) {
                return null;
            }
        }
        byte[] b;
        try {
            // no lookup: the text holds only hex digits, colons and dots
            b = java.net.InetAddress.getByName(text).getAddress();
        } catch (java.net.UnknownHostException e) {
            return null;
        }
        if (b.length == 4) {
            return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
        }
        if (carriesIpv4(b)) {
            return (b[12] & 0xff) + "." + (b[13] & 0xff) + "." + (b[14] & 0xff) + "." + (b[15] & 0xff);
        }
        return rfc5952(b);
    }

    /** Whether 16 address bytes are IPv4-mapped, IPv4-compatible (not :: or ::1) or NAT64 (64:ff9b::/96). */
    public static boolean carriesIpv4(byte[] b) {
        boolean zero80 = true;
        for (int i = 0; i < 10; i++) {
            zero80 &= b[i] == 0;
        }
        boolean mapped = zero80 && b[10] == (byte) 0xff && b[11] == (byte) 0xff;
        boolean compatible = zero80 && b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0);
        boolean nat64 = b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b;
        for (int i = 4; nat64 && i < 12; i++) {
            nat64 = b[i] == 0;
        }
        return mapped || compatible || nat64;
    }

    /** RFC 5952 text of 16 address bytes: lower-case hex, no leading zeros, the longest zero run as {@code ::}. */
    public static String rfc5952(byte[] b) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (b[2 * i] & 0xff) << 8 | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLen - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(g[i]));
        }
        return out.toString();
    }
}
