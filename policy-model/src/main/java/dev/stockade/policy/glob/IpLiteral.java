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
}
