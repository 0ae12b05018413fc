package dev.stockade.policy.eval.internal;

import java.net.IDN;
import java.util.Locale;

/**
 * Checks and normalises the host of a request without allocating in the common case (an ASCII name).
 * Names are matched case-insensitively by the index, so they are not lower-cased here.
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

    /** Whether {@code host[0, end)} is a dotted-quad IPv4 literal. */
    static boolean isIpv4(String host, int end) {
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
    static boolean isIpv6(String host) {
        return host != null && (host.indexOf(':') >= 0 || host.startsWith("["));
    }

    /** The IPv6 literal without brackets, lower-cased; null when it is not a plausible one. */
    static String ipv6Key(String host) {
        String h = host;
        if (h.startsWith("[")) {
            if (!h.endsWith("]")) {
                return null;
            }
            h = h.substring(1, h.length() - 1);
        }
        if (h.length() < 2 || h.length() > 45 || h.indexOf(':') == h.lastIndexOf(':')) {
            return null;
        }
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':'
                    || c == '.';
            if (!ok) {
                return null;
            }
        }
        return h.toLowerCase(Locale.ROOT);
    }

    /**
     * The normal form of a host name: IDNA to ASCII, lower case, one trailing dot dropped; null when it
     * is not a plausible name (the caller then tries it as an IPv6 literal).
     */
    static String normalise(String host) {
        if (isIpv6(host)) {
            return host;
        }
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        int end = nameEnd(h);
        if (end == NON_ASCII) {
            return toAscii(h);
        }
        return end < 0 ? null : h.toLowerCase(Locale.ROOT);
    }

    /** The ASCII (punycode) form of an internationalised name, lower-cased; null when IDNA refuses it. */
    static String toAscii(String host) {
        try {
            String ascii = IDN.toASCII(host, 0).toLowerCase(Locale.ROOT);
            return nameEnd(ascii) < 0 ? null : ascii;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
