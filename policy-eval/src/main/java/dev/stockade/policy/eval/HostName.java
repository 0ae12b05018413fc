package dev.stockade.policy.eval;

import dev.stockade.policy.glob.Idna;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * A request host in its one normal form, the grammar every part of Stockade shares (the decision
 * program, the proxy, {@code policy eval --url}, the test runner): see docs/semantics.md, "Hosts".
 *
 * <ul>
 *   <li>a <b>name</b>: lower case, one trailing dot dropped, no empty label (so {@code allowed.com..} is
 *       refused), labels of letters, digits, {@code -} and {@code _} up to 63 characters, 253 in all;
 *       non-ASCII names and {@code xn--} labels through IDNA UTS #46 non-transitional processing (as
 *       browsers and curl do: {@code straße.example} is {@code xn--strae-oqa.example});</li>
 *   <li>an <b>IPv4 literal</b>: a name whose last label is a number is an address in some
 *       {@code inet_aton} form ({@code 2130706433}, {@code 0x7f000001}, {@code 127.1}) and becomes its
 *       dotted quad; a part with a leading zero ({@code 0177.0.0.1}) is refused, since libc reads it as
 *       octal and Java as decimal;</li>
 *   <li>an <b>IPv6 literal</b> (brackets optional, no zone): RFC 5952 text, and the IPv4-mapped,
 *       IPv4-compatible and NAT64 forms become the IPv4 address they carry.</li>
 * </ul>
 *
 * @param value the normal form (IPv6 without brackets)
 * @param kind  what it is
 */
public record HostName(String value, Kind kind) implements ParsedHost {
    private static final int MAX_NAME = 253;

    /** What a host is. */
    public enum Kind {
        /** A DNS name. */
        NAME,
        /** An IPv4 address. */
        IPV4,
        /** An IPv6 address. */
        IPV6
    }

    /** A host text that is not a host; {@code why} names the rule, never echoes more than the text. */
    public record Refused(String why) implements ParsedHost {
    }

    /** Whether this host is an IP literal. */
    public boolean isAddress() {
        return kind != Kind.NAME;
    }

    /** The host as an authority's host part: IPv6 in brackets. */
    public String authorityForm() {
        return kind == Kind.IPV6 ? "[" + value + "]" : value;
    }

    @Override
    public String toString() {
        return value;
    }

    /** Parses a host as it appears in a URL, a request target, a Host header, SNI or a pattern's host. */
    public static ParsedHost parse(String text) {
        if (text == null || text.isEmpty()) {
            return new Refused("the host is empty");
        }
        if (text.startsWith("[") || text.indexOf(':') >= 0) {
            return ipv6(text);
        }
        String h = text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
        if (h.isEmpty() || h.startsWith(".") || h.contains("..")) {
            return new Refused("the host has an empty label");
        }
        int lastDot = h.lastIndexOf('.');
        if (endsInNumber(h.substring(lastDot + 1))) {
            return Ipv4Forms.parse(h);
        }
        return name(h);
    }

    /** Parses and returns the host, or throws {@link IllegalArgumentException} with the refusal. */
    public static HostName of(String text) {
        ParsedHost p = parse(text);
        if (p instanceof Refused r) {
            throw new IllegalArgumentException(r.why());
        }
        return (HostName) p;
    }

    /** A last label that makes the host an address (WHATWG URL's "ends in a number"). */
    private static boolean endsInNumber(String label) {
        if (label.isEmpty()) {
            return false;
        }
        boolean digits = true;
        for (int i = 0; i < label.length(); i++) {
            char c = label.charAt(i);
            digits &= c >= '0' && c <= '9';
        }
        return digits || label.length() >= 2 && label.charAt(0) == '0' && (label.charAt(1) | 0x20) == 'x';
    }

    private static ParsedHost name(String h) {
        boolean ascii = true;
        for (int i = 0; i < h.length(); i++) {
            ascii &= h.charAt(i) < 0x80;
        }
        String lower = h.toLowerCase(Locale.ROOT);
        String ace = lower;
        if (!ascii || lower.startsWith("xn--") || lower.contains(".xn--")) {
            ace = Idna.toAscii(h);
            if (ace == null || ace.isEmpty()) {
                return new Refused("the host is not a valid internationalised name (IDNA UTS #46)");
            }
            if (endsInNumber(ace.substring(ace.lastIndexOf('.') + 1))) {
                // IDNA can map a name to digits (ignored code points, fullwidth digits): WHATWG URL checks
                // "ends in a number" after IDNA too, so such a host is an address (found by the fuzz target)
                return Ipv4Forms.parse(ace);
            }
        }
        return checkLdh(ace);
    }

    private static ParsedHost checkLdh(String ace) {
        if (ace.isEmpty() || ace.length() > MAX_NAME) {
            return new Refused("the host is empty or longer than 253 characters");
        }
        int labelStart = 0;
        for (int i = 0; i <= ace.length(); i++) {
            char c = i < ace.length() ? ace.charAt(i) : '.';
            if (c == '.') {
                if (i == labelStart || i - labelStart > 63) {
                    return new Refused("the host has an empty label or one longer than 63 characters");
                }
                labelStart = i + 1;
            } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
                return new Refused("the host holds a character a host name cannot");
            }
        }
        return new HostName(ace, Kind.NAME);
    }

    private static ParsedHost ipv6(String text) {
        String s = text;
        if (s.startsWith("[")) {
            if (!s.endsWith("]")) {
                return new Refused("an IPv6 literal needs its closing bracket");
            }
            s = s.substring(1, s.length() - 1);
        }
        if (s.length() < 2 || s.length() > 45 || s.indexOf(':') < 0) {
            return new Refused("the host is not an IPv6 literal");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') || c == ':' || c == '.')) {
                return new Refused("the host is not an IPv6 literal (zones are refused)");
            }
        }
        try {
            // no lookup: the text holds only hex digits, colons and dots
            return fromAddress(InetAddress.getByName(s));
        } catch (UnknownHostException e) {
            return new Refused("the host is not an IPv6 literal");
        }
    }

    /** The canonical host of an address: IPv4 dotted quad (mapped, compatible and NAT64 unwrapped) or RFC 5952. */
    public static HostName fromAddress(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return new HostName(dotted(b, 0), Kind.IPV4);
        }
        if (Ipv4Forms.carriesIpv4(b)) {
            return new HostName(dotted(b, 12), Kind.IPV4);
        }
        return new HostName(Ipv4Forms.rfc5952(b), Kind.IPV6);
    }

    private static String dotted(byte[] b, int at) {
        return (b[at] & 0xff) + "." + (b[at + 1] & 0xff) + "." + (b[at + 2] & 0xff) + "." + (b[at + 3] & 0xff);
    }
}
