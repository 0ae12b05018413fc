package dev.stockade.proxy.dial;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Parses IP literals without ever touching DNS. */
public final class IpLiterals {
    private IpLiterals() {
    }

    /** Bytes of a dotted-quad IPv4 or an IPv6 literal (brackets allowed), {@code null} otherwise. */
    public static byte[] parse(String text) {
        String s = text;
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        if (s.isEmpty()) {
            return null;
        }
        if (s.indexOf(':') >= 0) {
            // Inet6 literal: InetAddress parses a literal containing ':' without a lookup; a zone id is refused
            if (s.indexOf('%') >= 0 || !s.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
                return null;
            }
            try {
                return InetAddress.getByName(s).getAddress();
            } catch (UnknownHostException e) {
                return null;
            }
        }
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }

    /** Whether the text is an IP literal (dotted quad or IPv6, brackets allowed). */
    public static boolean isLiteral(String text) {
        return parse(text) != null;
    }
}
