package dev.stockade.policy.model;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.policy.model.internal.Locator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders problems for people (with the source line and a caret) and for machines (RFC 9457, SARIF). */
public final class ProblemRenderer {
    /** Base of problem type URIs and of the per-code documentation. */
    public static final String PROBLEM_BASE = "https://stockade.dev/problems/";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ProblemRenderer() {
    }

    /** Characters of a source line shown on each side of a problem's column; longer lines are clipped. */
    public static final int LINE_WINDOW = 60;

    /**
     * One block per problem: {@code file:line:col: error[code]: message}, the source line (clipped to
     * {@link #LINE_WINDOW} characters either side of the column), a caret under the column, and
     * {@code   = help: ...} when there is help. Problems without a position name their pointer instead.
     * Every user-supplied text is escaped ({@link TerminalText}).
     */
    public static String human(List<Problem> problems, String sourceName, String text) {
        Locator locator = new Locator(SourceMap.empty(), text);
        StringBuilder out = new StringBuilder();
        String file = TerminalText.escape(sourceName == null ? "<input>" : sourceName);
        for (Problem p : problems) {
            String level = p.severity().name().toLowerCase(Locale.ROOT);
            out.append(file);
            if (p.line() > 0) {
                out.append(':').append(p.line()).append(':').append(p.column());
            }
            out.append(": ").append(level).append('[').append(p.code()).append("]: ")
                    .append(TerminalText.escape(p.message()));
            if (p.line() <= 0 && p.pointer() != null && !p.pointer().isEmpty()) {
                out.append(" (at `").append(TerminalText.escape(clip(p.pointer()))).append("`)");
            }
            out.append('\n');
            String line = locator.line(p.line());
            if (p.line() > 0 && !line.isEmpty()) {
                sourceLine(out, String.valueOf(p.line()), line, Math.max(1, p.column()));
            }
            if (p.help() != null) {
                out.append("  = help: ").append(TerminalText.escape(p.help())).append('\n');
            }
        }
        return out.toString();
    }

    /** The window of {@code line} around {@code column}, escaped, and a caret line under the column. */
    private static void sourceLine(StringBuilder out, String gutter, String line, int column) {
        int at = Math.min(column - 1, line.length());
        int from = Math.max(0, at - LINE_WINDOW);
        int to = Math.min(line.length(), at + LINE_WINDOW);
        StringBuilder shown = new StringBuilder(from > 0 ? "..." : "");
        StringBuilder caret = new StringBuilder(from > 0 ? "   " : "");
        for (int i = from; i < to; i++) {
            char c = line.charAt(i);
            TerminalText.append(shown, c);
            if (i < at) {
                caret.append(c == '\t' ? "\t" : " ".repeat(TerminalText.width(c)));
            }
        }
        shown.append(to < line.length() ? "..." : "");
        out.append(' ').append(gutter).append(" | ").append(shown).append('\n');
        out.append(' ').append(" ".repeat(gutter.length())).append(" | ").append(caret).append("^\n");
    }

    private static String clip(String s) {
        return s.length() <= 2 * LINE_WINDOW ? s : s.substring(0, 2 * LINE_WINDOW) + "...";
    }

    /**
     * An RFC 9457 problem details object: {@code type} {@value #PROBLEM_BASE}invalid-policy (or the
     * code, when every problem has the same one), {@code title}, {@code status}, {@code detail} and
     * {@code errors: [{pointer, code, detail}]}.
     */
    public static ObjectNode problemDetails(List<Problem> problems, String detail, int status) {
        String slug = problems.isEmpty() ? "invalid-policy"
                : problems.stream().map(Problem::code).distinct().count() == 1 ? problems.get(0).code()
                : "invalid-policy";
        ObjectNode o = NODES.objectNode();
        o.put("type", PROBLEM_BASE + slug);
        o.put("title", slug.equals("invalid-policy") ? "Invalid policy" : title(slug));
        o.put("status", status);
        o.put("detail", detail == null ? problems.size() + " problem(s) in the policy" : detail);
        ArrayNode errors = o.putArray("errors");
        for (Problem p : problems) {
            ObjectNode e = errors.addObject();
            e.put("pointer", p.pointer());
            e.put("code", p.code());
            e.put("detail", p.message());
            if (p.severity() == Severity.WARNING) {
                e.put("severity", "warning");
            }
        }
        return o;
    }

    private static String title(String code) {
        String words = code.replace('-', ' ');
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    /** A SARIF 2.1.0 log with one run of tool {@code stockade}; rules are the problem codes. */
    public static ObjectNode sarif(Map<String, List<Problem>> problemsByFile) {
        ObjectNode log = NODES.objectNode();
        log.put("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
        log.put("version", "2.1.0");
        ObjectNode run = log.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", "stockade");
        driver.put("informationUri", "https://stockade.dev");
        ArrayNode rules = driver.putArray("rules");
        ArrayNode results = run.putArray("results");
        Map<String, Integer> ruleIndex = new LinkedHashMap<>();
        for (Map.Entry<String, List<Problem>> file : problemsByFile.entrySet()) {
            for (Problem p : file.getValue()) {
                Integer index = ruleIndex.get(p.code());
                if (index == null) {
                    index = ruleIndex.size();
                    ruleIndex.put(p.code(), index);
                    ObjectNode rule = rules.addObject();
                    rule.put("id", p.code());
                    rule.put("helpUri", PROBLEM_BASE + p.code());
                }
                ObjectNode r = results.addObject();
                r.put("ruleId", p.code());
                r.put("ruleIndex", index);
                r.put("level", p.severity() == Severity.ERROR ? "error" : "warning");
                r.putObject("message").put("text", p.help() == null ? p.message() : p.message() + " (" + p.help() + ")");
                ObjectNode physical = r.putArray("locations").addObject().putObject("physicalLocation");
                physical.putObject("artifactLocation").put("uri", file.getKey());
                if (p.line() > 0) {
                    ObjectNode region = physical.putObject("region");
                    region.put("startLine", p.line());
                    region.put("startColumn", Math.max(1, p.column()));
                }
                if (p.pointer() != null) {
                    r.putObject("properties").put("pointer", p.pointer());
                }
            }
        }
        return log;
    }
}
