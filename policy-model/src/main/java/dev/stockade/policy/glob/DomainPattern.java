package dev.stockade.policy.glob;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A domain pattern normalised once: an exact name or IP literal, a leading-label wildcard ({@code *.suffix}: one
 * or more labels in front of the suffix, never the suffix itself), or a general glob with {@code *} inside
 * labels; each optionally on one port ({@code api.example.com:8443}, {@code [2001:db8::1]:8443}: see
 * {@link HostPort}). Shared by the compiler (row intersection) and the program (index); the host methods
 * ({@link #matches(CharSequence)}, {@link #literal()}) ignore the port, which the index keeps apart.
 */
public final class DomainPattern {

    /** The shape of a pattern, which decides where the index keeps it. */
    public enum Kind {
        /** One exact name. */
        EXACT,
        /** Every name under a suffix ({@code *.example.com}), or every name (a lone {@code *}). */
        SUFFIX,
        /** Any other glob, matched by its compiled program. */
        GENERAL,
        /** A pattern that did not compile: it matches nothing. */
        INVALID
    }

    private final String text;
    private final Kind kind;
    /** EXACT: the name; SUFFIX: the suffix after {@code *.} ({@code ""} for a lone {@code *}). */
    private final String literal;
    /** Labels right of the rightmost label holding a {@code *}, leftmost first. */
    private final String[] literalSuffix;
    private final Glob glob;
    /** The one port the pattern admits, {@link HostPort#ANY} for every port. */
    private final int port;
    /** The host part as written. */
    private final String hostText;

    private DomainPattern(String text, Kind kind, String literal, String[] literalSuffix, Glob glob, int port,
            String hostText) {
        this.text = text;
        this.kind = kind;
        this.literal = literal;
        this.literalSuffix = literalSuffix;
        this.glob = glob;
        this.port = port;
        this.hostText = hostText;
    }

    private DomainPattern(String text, Kind kind, String literal, String[] literalSuffix, Glob glob) {
        this(text, kind, literal, literalSuffix, glob, HostPort.ANY, text);
    }

    private static DomainPattern invalid(String text) {
        return new DomainPattern(text, Kind.INVALID, null, new String[0], null);
    }

    /** Normalises {@code text}; a pattern that does not compile is {@link Kind#INVALID} and matches nothing. */
    public static DomainPattern parse(String text) {
        if (text == null || text.isEmpty()) {
            return invalid(String.valueOf(text));
        }
        HostPort split = HostPort.split(text);
        if (split.error() != null) {
            return invalid(text);
        }
        DomainPattern host = parseHost(split.host());
        if (!split.hasPort() || host.kind == Kind.INVALID) {
            return split.hasPort() ? invalid(text) : host;
        }
        return new DomainPattern(text, host.kind, host.literal, host.literalSuffix, host.glob, split.port(), host.text);
    }

    /** The host part alone: an IPv6 literal (bracketed or bare), a plain name, or a glob. */
    private static DomainPattern parseHost(String text) {
        if (text.isEmpty()) {
            return invalid(text);
        }
        if (IpLiteral.isIpv6(text)) {
            return ipv6(text);
        }
        DomainPattern fast = fast(text);
        if (fast != null) {
            return fast;
        }
        GlobResult result = Glob.compile(GlobKind.DOMAIN, text);
        if (!result.ok() || result.glob() == null) {
            return invalid(text);
        }
        Glob glob = result.glob();
        List<String> labels = glob.labels();
        int lastStar = -1;
        for (int i = 0; i < labels.size(); i++) {
            if (labels.get(i).indexOf('*') >= 0) {
                lastStar = i;
            }
        }
        String[] suffix = labels.subList(lastStar + 1, labels.size()).toArray(new String[0]);
        String joinedSuffix = String.join(".", suffix);
        if (lastStar < 0) {
            return new DomainPattern(text, Kind.EXACT, joinedSuffix, suffix, glob);
        }
        if (lastStar == 0 && labels.get(0).equals("*")) {
            return new DomainPattern(text, Kind.SUFFIX, joinedSuffix, suffix, glob);
        }
        return new DomainPattern(text, Kind.GENERAL, null, suffix, glob);
    }

    /**
     * An IPv6 literal, {@code [2001:db8::1]} or bare {@code 2001:db8::1}: an exact pattern for its normal form
     * (RFC 5952, or the IPv4 address a mapped, compatible or NAT64 form carries), as requests are compared.
     */
    private static DomainPattern ipv6(String text) {
        boolean bracketed = text.startsWith("[");
        if (bracketed != text.endsWith("]")) {
            return invalid(text);
        }
        String address = IpLiteral.canonicalIpv6(bracketed ? text.substring(1, text.length() - 1) : text);
        if (address == null) {
            return invalid(text);
        }
        String[] labels = address.indexOf(':') >= 0 ? new String[] {address} : address.split("\\.");
        return new DomainPattern(text, Kind.EXACT, address, labels, null);
    }

    /**
     * A plain lower-case ASCII name or {@code *.name} without building label lists through the glob
     * compiler (the common case, kept cheap for policies of many entries); null otherwise.
     */
    private static DomainPattern fast(String text) {
        int start = text.startsWith("*.") ? 2 : 0;
        int n = text.length();
        if (start >= n || text.charAt(n - 1) == '.') {
            return null;
        }
        int labels = 1;
        for (int i = start; i < n; i++) {
            char c = text.charAt(i);
            if (c == '.') {
                if (i == start || text.charAt(i - 1) == '.' || i - start > 253) {
                    return null;
                }
                labels++;
            } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return null;
            }
        }
        String name = start == 0 ? text : text.substring(start);
        String[] suffix = new String[labels];
        int from = 0;
        for (int k = 0; k < labels; k++) {
            int dot = name.indexOf('.', from);
            int to = dot < 0 ? name.length() : dot;
            if (to - from > 63) {
                return null;
            }
            suffix[k] = name.substring(from, to);
            from = to + 1;
        }
        return new DomainPattern(text, start == 0 ? Kind.EXACT : Kind.SUFFIX, name, suffix, null);
    }

    /** The pattern as written. */
    public String text() {
        return text;
    }

    /** The shape of the pattern, which decides where a program's index keeps it. */
    public Kind kind() {
        return kind;
    }

    /** The one port the pattern admits, {@link HostPort#ANY} when it names none. */
    public int port() {
        return port;
    }

    /** The host part as written, without the port. */
    public String hostText() {
        return hostText;
    }

    /**
     * This pattern's hosts on {@code value} alone ({@link HostPort#ANY}: every port); its text is the host
     * part with {@code :value}, an IPv6 literal in brackets.
     */
    public DomainPattern withPort(int value) {
        if (value == port || kind == Kind.INVALID) {
            return this;
        }
        if (value == HostPort.ANY) {
            return new DomainPattern(hostText, kind, literal, literalSuffix, glob, value, hostText);
        }
        boolean bare = hostText.indexOf(':') >= 0 && !hostText.startsWith("[");
        String host = bare ? "[" + hostText + "]" : hostText;
        return new DomainPattern(host + ":" + value, kind, literal, literalSuffix, glob, value, hostText);
    }

    /** Whether the pattern admits {@code value}: it names no port, or that one. */
    public boolean admitsPort(int value) {
        return port == HostPort.ANY || port == value;
    }

    /** Whether a normalised host on {@code value} matches: {@link #matches(CharSequence)} and {@link #admitsPort}. */
    public boolean matches(CharSequence host, int value) {
        return admitsPort(value) && matches(host);
    }

    /** EXACT: the normalised name; SUFFIX: the normalised suffix; otherwise null. */
    public String literal() {
        return literal;
    }

    /** The labels right of the rightmost wildcard label (all labels of an exact name), leftmost first. */
    public String[] literalSuffix() {
        return literalSuffix.clone();
    }

    /**
     * Whether a normalised (lower-case, no trailing dot) host matches. Only an exact pattern matches an IP
     * literal: wildcards are about names.
     */
    public boolean matches(CharSequence host) {
        if (kind != Kind.EXACT && isIpLiteral(host)) {
            return false;
        }
        switch (kind) {
            case EXACT:
                return literal.contentEquals(host);
            case SUFFIX:
                if (literal.isEmpty()) {
                    return host.length() > 0;
                }
                int n = host.length();
                int m = literal.length();
                return n > m + 1 && host.charAt(n - m - 1) == '.'
                        && host.toString().regionMatches(n - m, literal, 0, m);
            case GENERAL:
                return glob.matches(host);
            default:
                return false;
        }
    }

    private static boolean isIpLiteral(CharSequence host) {
        String h = host.toString();
        return IpLiteral.isIpv4(h, h.length()) || IpLiteral.isIpv6(h);
    }

    /**
     * The conjunction of {@code row} (conjunctive patterns, narrowest first) and {@code next}: a single
     * pattern when one contains the other, both when they overlap partially or it cannot tell, and
     * {@code null} when no host can match both (so the combined row can be dropped). Ports meet too: a
     * port and no port is that port, two different ports are nothing; every pattern of a row with a
     * port carries it.
     */
    public static List<DomainPattern> intersect(List<DomainPattern> row, DomainPattern next) {
        int rowPort = portOf(row);
        if (rowPort != HostPort.ANY && next.port != HostPort.ANY && rowPort != next.port) {
            return null;
        }
        List<DomainPattern> hosts = intersectHosts(row, next);
        return hosts == null ? null : onPort(hosts, rowPort == HostPort.ANY ? next.port : rowPort);
    }

    /** The port of a row: the one its patterns name, or {@link HostPort#ANY}. */
    public static int portOf(List<DomainPattern> row) {
        for (DomainPattern p : row) {
            if (p.port != HostPort.ANY) {
                return p.port;
            }
        }
        return HostPort.ANY;
    }

    private static List<DomainPattern> onPort(List<DomainPattern> row, int port) {
        if (port == HostPort.ANY || row.stream().allMatch(p -> p.port == port)) {
            return row;
        }
        List<DomainPattern> out = new ArrayList<>(row.size());
        for (DomainPattern p : row) {
            out.add(p.withPort(port));
        }
        return List.copyOf(out);
    }

    private static List<DomainPattern> intersectHosts(List<DomainPattern> row, DomainPattern next) {
        if (next.kind == Kind.INVALID) {
            return null;
        }
        DomainPattern head = row.get(0);
        if (head.kind == Kind.INVALID) {
            return null;
        }
        if (head.kind == Kind.EXACT) {
            return next.matches(head.literal) ? row : null;
        }
        if (next.kind == Kind.EXACT) {
            for (DomainPattern p : row) {
                if (!p.matches(next.literal)) {
                    return null;
                }
            }
            return List.of(next);
        }
        for (DomainPattern p : row) {
            if (!suffixesCompatible(p.literalSuffix, next.literalSuffix)) {
                return null;
            }
        }
        if (covers(next.withPort(HostPort.ANY), row)) {
            return row;
        }
        if (row.size() == 1 && covers(head.withPort(HostPort.ANY), List.of(next))) {
            return List.of(next);
        }
        List<DomainPattern> both = new ArrayList<>(row);
        both.add(next);
        return List.copyOf(both);
    }

    /**
     * Whether every host of the conjunction {@code row}, on every port the row admits, matches {@code outer}
     * (false when unsure).
     */
    public static boolean covers(DomainPattern outer, List<DomainPattern> row) {
        if (outer.port != HostPort.ANY && outer.port != portOf(row)) {
            return false; // a pattern on one port never covers other ports
        }
        for (DomainPattern p : row) {
            if (p.hostText.equals(outer.hostText) && p.kind != Kind.INVALID) {
                return true;
            }
            if (p.kind == Kind.EXACT) {
                return outer.matches(p.literal);
            }
            if (outer.kind == Kind.SUFFIX && p.kind == Kind.SUFFIX) {
                if (outer.literal.isEmpty() || endsWithLabels(p.literalSuffix, outer.literalSuffix)) {
                    return true;
                }
            }
            if (outer.kind == Kind.SUFFIX && outer.literal.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static boolean suffixesCompatible(String[] a, String[] b) {
        return endsWithLabels(a, b) || endsWithLabels(b, a);
    }

    private static boolean endsWithLabels(String[] longer, String[] shorter) {
        if (shorter.length > longer.length) {
            return false;
        }
        int off = longer.length - shorter.length;
        for (int i = 0; i < shorter.length; i++) {
            if (!longer[off + i].equals(shorter[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return text;
    }
}
