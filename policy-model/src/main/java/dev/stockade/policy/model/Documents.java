package dev.stockade.policy.model;

import dev.stockade.policy.model.internal.TreeReader;
import java.util.List;

/**
 * Reads YAML or JSON text into trees with a source map. Never throws for anything in the text:
 * syntax errors, duplicate keys, YAML aliases and exceeded limits are problems.
 */
public final class Documents {
    private Documents() {
    }

    /** Reads one YAML or JSON document (a second document in the text is a problem). */
    public static ParsedDocument parse(String sourceName, String text) {
        return TreeReader.readOne(sourceName, text);
    }

    /** Reads a YAML stream of documents separated by {@code ---}; at least one result. */
    public static List<ParsedDocument> parseAll(String sourceName, String text) {
        return TreeReader.readAll(sourceName, text);
    }
}
