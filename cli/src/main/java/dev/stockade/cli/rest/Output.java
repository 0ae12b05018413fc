package dev.stockade.cli.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * What the REST commands print: a table (or a record, one field a line) for people, or the API's own JSON with
 * {@code --format json}; problem details rendered as {@code error: <detail> (<code>, HTTP <status>)}. Every value
 * that came from the server has its control characters escaped before it reaches the terminal.
 */
public final class Output {
    /** The output formats of the REST commands: for people, the API's JSON, or only ids (for shell scripts). */
    public enum Format { table, json, id }

    /** A table column: its header and how a row's cell is read from an item. */
    public record Column(String header, Function<JsonNode, String> cell) {
        /** The item's field as text; {@code -} when absent or null. */
        public static Column of(String header, String field) {
            return new Column(header, n -> text(n.path(field)));
        }

        /** An ISO 8601 instant field shown to the second. */
        public static Column time(String header, String field) {
            return new Column(header, n -> instant(n.path(field)));
        }
    }

    private final PrintWriter out;
    private final PrintWriter err;
    private final Format format;

    public Output(PrintWriter out, PrintWriter err, Format format) {
        this.out = out;
        this.err = err;
        this.format = format;
    }

    public Format format() {
        return format;
    }

    /** A page answer ({@code {"items": [...]}}): a table of its items, or the JSON as the API sent it. */
    public void list(JsonNode page, List<Column> columns) {
        if (format == Format.json) {
            json(page);
        } else if (format == Format.id) {
            page.path("items").forEach(this::id);
        } else {
            List<JsonNode> items = new ArrayList<>();
            page.path("items").forEach(items::add);
            table(items, columns, true);
        }
    }

    /** Rows of a table, with or without the header line (pages printed as they arrive share one header). */
    public void table(List<JsonNode> items, List<Column> columns, boolean header) {
        if (items.isEmpty() && header) {
            out.println("(none)");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        if (header) {
            rows.add(columns.stream().map(Column::header).toArray(String[]::new));
        }
        for (JsonNode item : items) {
            rows.add(columns.stream().map(c -> Text.safe(c.cell().apply(item))).toArray(String[]::new));
        }
        int[] width = new int[columns.size()];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].codePointCount(0, row[i].length()));
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(row[i]);
                if (i < row.length - 1) {
                    line.append(" ".repeat(width[i] - row[i].codePointCount(0, row[i].length()) + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
        out.flush();
    }

    /** One object: a field a line ({@code name  value}), or the JSON as the API sent it. */
    public void record(JsonNode item, List<Column> fields) {
        if (format == Format.json) {
            json(item);
            return;
        }
        if (format == Format.id) {
            id(item);
            return;
        }
        int width = fields.stream().mapToInt(f -> f.header().length()).max().orElse(0);
        for (Column f : fields) {
            String label = f.header().toLowerCase(Locale.ROOT);
            out.println(label + " ".repeat(width - label.length() + 2) + Text.safe(f.cell().apply(item)));
        }
        out.flush();
    }

    /** A sentence for people after a command whose answer has no body; nothing in the other formats. */
    public void done(String message) {
        if (format == Format.table) {
            out.println(Text.safe(message));
            out.flush();
        }
    }

    /** The item's {@code id} alone on a line ({@code --format id}); nothing for an answer without one. */
    private void id(JsonNode item) {
        if (item.hasNonNull("id")) {
            out.println(Text.safe(item.path("id").asText()));
            out.flush();
        }
    }

    /** A note on standard error, in either format (it never mixes with the JSON on standard output). */
    public void note(String message) {
        err.println(Text.safe(message));
        err.flush();
    }

    /** Pretty-printed JSON on standard output. */
    public void json(JsonNode node) {
        try {
            out.println(ApiClient.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A refusal for people on standard error: {@code error: <detail> (<code>, HTTP <status>)} and each
     * {@code errors[]} entry as {@code   <pointer>: <detail>}. With {@code --format json} the problem body also goes
     * to standard output, so scripts can read its code.
     */
    public void problem(Refused refused) {
        JsonNode p = refused.problem();
        String detail = p.path("detail").asText(p.path("title").asText("the platform refused the request"));
        String code = p.path("code").asText("");
        err.println("error: " + Text.safe(detail) + " (" + (code.isEmpty() ? "" : Text.safe(code) + ", ")
                + "HTTP " + refused.status() + ")");
        for (JsonNode e : p.path("errors")) {
            err.println("  " + Text.safe(e.path("pointer").asText("")) + ": " + Text.safe(e.path("detail").asText("")));
        }
        err.flush();
        if (format == Format.json) {
            json(p);
        }
    }

    /** A one-line failure on standard error. */
    public void failure(Failure f) {
        err.println("stockade: " + f.getMessage());
        err.flush();
    }

    static String text(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return "-";
        }
        return n.isValueNode() ? n.asText() : n.toString();
    }

    static String instant(JsonNode n) {
        String s = text(n);
        try {
            return Instant.parse(s).truncatedTo(ChronoUnit.SECONDS).toString();
        } catch (DateTimeParseException e) {
            return s;
        }
    }
}
