package dev.stockade.policy.glob;

import dev.stockade.policy.text.Quoted;

/**
 * A domain pattern split into its host part and an optional {@code :PORT} (docs/semantics.md, "Ports"):
 * {@code api.example.com:8443}, {@code *.example.com:8080}, {@code [2001:db8::1]:8443}. An IPv6 literal needs
 * brackets when a port follows it; a bare IPv6 literal ({@code 2001:db8::1}, two colons or more) is the address
 * and names no port.
 *
 * @param host       the host part as written (brackets kept)
 * @param port       the port, 1 to 65535, or {@link #ANY} when the pattern names none or it is invalid
 * @param portOffset where the port's text starts in the pattern, -1 when there is none
 * @param error      why the port is refused, {@code null} when it is fine or absent
 */
public record HostPort(String host, int port, int portOffset, String error) {
    /** The pattern names no port: every port. */
    public static final int ANY = -1;
    private static final int MAX_PORT = 65535;

    /** Splits {@code text} (not null); never throws. */
    public static HostPort split(String text) {
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0 || close + 1 == text.length()) {
                return new HostPort(text, ANY, -1, null); // the host grammar refuses a missing bracket
            }
            String host = text.substring(0, close + 1);
            if (text.charAt(close + 1) != ':') {
                return new HostPort(host, ANY, close + 1, "only `:PORT` can follow the `]` of an IPv6 literal");
            }
            return withPort(text, host, close + 2);
        }
        int colon = text.indexOf(':');
        if (colon < 0 || text.indexOf(':', colon + 1) >= 0) {
            return new HostPort(text, ANY, -1, null); // no port, or a bare IPv6 literal: the address
        }
        return withPort(text, text.substring(0, colon), colon + 1);
    }

    /** Whether the pattern names a port. */
    public boolean hasPort() {
        return port != ANY;
    }

    private static HostPort withPort(String text, String host, int at) {
        String digits = text.substring(at);
        String error = portError(digits);
        return error == null ? new HostPort(host, Integer.parseInt(digits), at, null) : new HostPort(host, ANY, at, error);
    }

    /** Why {@code digits} is no port (decimal, 1 to 65535, no leading zero, no sign), or {@code null}. */
    private static String portError(String digits) {
        if (digits.isEmpty()) {
            return "the port after `:` is empty";
        }
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return "port " + Quoted.input(digits) + " is not a decimal number";
            }
        }
        if (digits.length() > 1 && digits.charAt(0) == '0') {
            return "port " + Quoted.input(digits) + " has a leading zero";
        }
        if (digits.length() > 5 || Integer.parseInt(digits) > MAX_PORT || Integer.parseInt(digits) == 0) {
            return "port " + Quoted.input(digits) + " is outside 1 to 65535";
        }
        return null;
    }
}
