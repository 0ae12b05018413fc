package dev.stockade.policy.model.internal;

import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import dev.stockade.policy.text.Quoted;
import java.util.Locale;

/**
 * A URL written where a domain pattern goes ({@code https://example.com}, {@code //example.com},
 * {@code example.com/api}): recognised as such, so the problem says what to write instead (the host as the
 * pattern, the scheme in {@code scheme}, a path in a rule) rather than reading {@code //example.com} as a
 * port (docs/semantics.md, "A URL where a domain pattern goes").
 */
final class PatternAsUrl {
    private PatternAsUrl() {
    }

    /** The problem when {@code pattern} is written as a URL or carries a path, query or fragment; else {@code null}. */
    static Problem problem(String at, String pattern) {
        int sep = pattern.indexOf("://");
        boolean schemeRelative = sep < 0 && pattern.startsWith("//");
        String rest = sep >= 0 ? pattern.substring(sep + 3) : schemeRelative ? pattern.substring(2) : pattern;
        int end = authorityEnd(rest);
        if (sep < 0 && !schemeRelative && end == rest.length()) {
            return null;
        }
        String scheme = sep > 0 ? pattern.substring(0, sep).toLowerCase(Locale.ROOT) : null;
        String host = withoutDefaultPort(rest.substring(rest.lastIndexOf('@', end - 1) + 1, end), scheme);
        String path = end < rest.length() && rest.charAt(end) == '/' ? pathOf(rest.substring(end)) : null;
        String message = sep >= 0 || schemeRelative
                ? "pattern " + Quoted.input(pattern) + " is a url, not a domain pattern"
                : "pattern " + Quoted.input(pattern) + " holds a path, query or fragment; a domain pattern names hosts only";
        return Problem.error(ProblemCode.PATTERN_IS_URL, at, message, help(host, scheme, path));
    }

    private static String help(String host, String scheme, String path) {
        StringBuilder help = new StringBuilder(host.isEmpty() ? "write the host alone, as in `example.com`"
                : "write " + Quoted.input(host));
        if (scheme != null && scheme.matches("[a-z][a-z0-9+.-]*")) {
            help.append(" and put the scheme in ").append(Quoted.input("scheme: " + scheme));
        }
        if (path != null) {
            help.append(" and the path in a rule: ").append(Quoted.input("rules: [{path: " + path + "}]"));
        }
        return help.toString();
    }

    /** Where the authority ends: at the first {@code /}, {@code ?} or {@code #}. */
    private static int authorityEnd(String rest) {
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c == '/' || c == '?' || c == '#') {
                return i;
            }
        }
        return rest.length();
    }

    /** The path part before any query or fragment, {@code null} when it is only {@code /}. */
    private static String pathOf(String tail) {
        int end = 0;
        while (end < tail.length() && tail.charAt(end) != '?' && tail.charAt(end) != '#') {
            end++;
        }
        String path = tail.substring(0, end);
        return path.equals("/") ? null : path;
    }

    /** {@code host:443} under {@code https} is {@code host}: the scheme already means its default port. */
    private static String withoutDefaultPort(String authority, String scheme) {
        String port = scheme == null ? null : switch (scheme) {
            case "https", "wss" -> ":443";
            case "http", "ws" -> ":80";
            default -> null;
        };
        return port != null && authority.endsWith(port) ? authority.substring(0, authority.length() - port.length())
                : authority;
    }
}
