package dev.stockade.policy.glob;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A domain pattern normalised once: an exact name, a leading-label wildcard ({@code *.suffix}: one or
 * more labels in front of the suffix, never the suffix itself), or a general glob with {@code *} inside
 * labels. Shared by the compiler (row intersection) and the program (index).
 */
public final class DomainPattern {

    /** The shape of a pattern, which decides where the index keeps it. */
    public enum Kind { EXACT, SUFFIX, GENERAL, INVALID }

    private final String text;
    private final Kind kind;
    /** EXACT: the name; SUFFIX: the suffix after {@code *.} ({@code ""} for a lone {@code *}). */
    private final String literal;
    /** Labels right of the rightmost label holding a {@code *}, leftmost first. */
    private final String[] literalSuffix;
    private final Glob glob;

    private DomainPattern(String text, Kind kind, String literal, String[] literalSuffix, Glob glob) {
        this.text = text;
        this.kind = kind;
        this.literal = literal;
        this.literalSuffix = literalSuffix;
        this.glob = glob;
    }

    /** Normalises {@code text}; a pattern that does not compile is {@link Kind#INVALID} and matches nothing. */
    public static DomainPattern parse(String text) {
        if (text == null || text.isEmpty()) {
            return new DomainPattern(String.valueOf(text), Kind.INVALID, null, new String[0], null);
        }
        DomainPattern fast = fast(text);
        if (fast != null) {
            return fast;
        }
        GlobResult result = Glob.compile(GlobKind.DOMAIN, text);
        if (!result.ok() || result.glob() == null) {
            return new DomainPattern(text, Kind.INVALID, null, new String[0], null);
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

    public Kind kind() {
        return kind;
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
     * {@code null} when no host can match both (so the combined row can be dropped).
     */
    public static List<DomainPattern> intersect(List<DomainPattern> row, DomainPattern next) {
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
        if (covers(next, row)) {
            return row;
        }
        if (row.size() == 1 && covers(head, List.of(next))) {
            return List.of(next);
        }
        List<DomainPattern> both = new ArrayList<>(row);
        both.add(next);
        return List.copyOf(both);
    }

    /** Whether every host of the conjunction {@code row} matches {@code outer} (false when unsure). */
    public static boolean covers(DomainPattern outer, List<DomainPattern> row) {
        for (DomainPattern p : row) {
            if (p.text.equals(outer.text) && p.kind != Kind.INVALID) {
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
