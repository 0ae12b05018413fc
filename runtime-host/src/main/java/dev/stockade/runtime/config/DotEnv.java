package dev.stockade.runtime.config;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code .env} file of a native install: {@code KEY=VALUE} lines, {@code #} comments, an optional
 * {@code export} prefix and single- or double-quoted values. A malformed line is a problem with its
 * position, never silently skipped, and never echoed: a line that is not {@code NAME=value} may be a secret.
 */
public final class DotEnv {
    /** One value and the line it came from. */
    public record Entry(String value, int line) {
    }

    private DotEnv() {
    }

    /**
     * Reads {@code file}; a missing file is empty. Problems are added as {@code file:line:column: message}; a
     * message names the variable when the line starts with a known one, and never quotes the line, which may
     * hold a secret.
     */
    public static Map<String, Entry> read(Path file, List<String> problems) {
        Map<String, Entry> out = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            problems.add(file + ": the .env file is not valid UTF-8");
            return out;
        } catch (IOException e) {
            problems.add(file + ": cannot read the .env file (" + e.getClass().getSimpleName() + ")");
            return out;
        }
        for (int i = 0; i < lines.size(); i++) {
            String problem = parseLine(lines.get(i), i + 1, out);
            if (problem != null) {
                problems.add(file + ":" + (i + 1) + ":" + problem);
            }
        }
        return out;
    }

    /** Adds the line's entry to {@code out}; returns {@code column: message} when the line is malformed. */
    private static String parseLine(String raw, int lineNo, Map<String, Entry> out) {
        int at = skipSpace(raw, 0);
        if (at == raw.length() || raw.charAt(at) == '#') {
            return null;
        }
        if (raw.startsWith("export ", at)) {
            at = skipSpace(raw, at + "export ".length());
        }
        int eq = raw.indexOf('=', at);
        if (eq < 0) {
            String known = knownName(raw.substring(at).split("[\\s:]", 2)[0]);
            return (at + 1) + ": " + (known == null ? "expected `NAME=value`; the line has no `=` (its text is not shown)"
                    : "`" + known + "` has no `=`; write `" + known + "=value`");
        }
        String key = raw.substring(at, eq).strip();
        int bad = firstInvalid(key);
        if (bad >= 0) {
            return (at + bad + 1) + ": expected `NAME=value`; a name is letters, digits and underscores and does not "
                    + "start with a digit (the line is not shown)";
        }
        int valueAt = skipSpace(raw, eq + 1);
        String value = unquote(raw.substring(valueAt).strip());
        if (value == null) {
            String known = knownName(key);
            return (valueAt + 1) + ": the quoted value" + (known == null ? "" : " of `" + known + "`")
                    + " has no closing quote, or text other than a `#` comment after it (the value is not shown)";
        }
        out.put(key, new Entry(value, lineNo));
        return null;
    }

    /** The value without its quotes or trailing comment; {@code null} when a quote is left open. */
    private static String unquote(String value) {
        if (value.isEmpty() || value.charAt(0) != '"' && value.charAt(0) != '\'') {
            int comment = value.indexOf(" #");
            return comment >= 0 ? value.substring(0, comment).strip() : value;
        }
        char q = value.charAt(0);
        if (value.length() >= 2 && value.charAt(value.length() - 1) == q) {
            return value.substring(1, value.length() - 1);
        }
        int close = value.indexOf(q, 1);
        if (close < 0 || !value.substring(close + 1).strip().startsWith("#")) {
            return null;
        }
        return value.substring(1, close);
    }

    /** {@code word} when it is one of the runtime's variables (safe to print), else {@code null}. */
    private static String knownName(String word) {
        return Variables.ALL.stream().map(Variable::name).filter(word::equals).findFirst().orElse(null);
    }

    /** The index of the first character that cannot be in a variable name, or -1 for a valid name. */
    private static int firstInvalid(String key) {
        if (key.isEmpty()) {
            return 0;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            boolean ok = c == '_' || c < 128 && Character.isLetter(c) || i > 0 && c >= '0' && c <= '9';
            if (!ok) {
                return i;
            }
        }
        return -1;
    }

    private static int skipSpace(String s, int from) {
        int i = from;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }
}
