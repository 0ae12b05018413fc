package dev.stockade.runtime.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code .env} file of a native install: {@code KEY=VALUE} lines, {@code #} comments, an optional
 * {@code export} prefix and single- or double-quoted values. A malformed line is a problem with its
 * position, never silently skipped.
 */
public final class DotEnv {
    /** One value and the line it came from. */
    public record Entry(String value, int line) {
    }

    private DotEnv() {
    }

    /** Reads {@code file}; a missing file is empty. Problems are added as {@code file:line:column: message}. */
    public static Map<String, Entry> read(Path file, List<String> problems) {
        Map<String, Entry> out = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            problems.add(file + ": cannot read the .env file (" + e.getClass().getSimpleName() + ")");
            return out;
        }
        for (int i = 0; i < lines.size(); i++) {
            parseLine(file, i + 1, lines.get(i), out, problems);
        }
        return out;
    }

    private static void parseLine(Path file, int lineNo, String raw, Map<String, Entry> out, List<String> problems) {
        String line = raw.strip();
        if (line.isEmpty() || line.startsWith("#")) {
            return;
        }
        if (line.startsWith("export ")) {
            line = line.substring("export ".length()).strip();
        }
        int eq = line.indexOf('=');
        String key = eq < 0 ? line : line.substring(0, eq).strip();
        if (eq < 0 || !key.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            int column = raw.indexOf(line) + 1;
            problems.add(file + ":" + lineNo + ":" + column + ": expected `NAME=value`\n  " + raw + "\n  "
                    + " ".repeat(column - 1) + "^");
            return;
        }
        String value = line.substring(eq + 1).strip();
        if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                || value.startsWith("'") && value.endsWith("'"))) {
            value = value.substring(1, value.length() - 1);
        } else {
            int comment = value.indexOf(" #");
            if (comment >= 0) {
                value = value.substring(0, comment).strip();
            }
        }
        out.put(key, new Entry(value, lineNo));
    }
}
