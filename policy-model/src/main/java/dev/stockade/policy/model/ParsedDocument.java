package dev.stockade.policy.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One YAML or JSON document as read: its tree ({@code null} when unreadable), where each node was
 * written, and the problems of reading (syntax, limits, duplicate keys, aliases).
 */
public record ParsedDocument(String sourceName, String text, JsonNode root, SourceMap sourceMap,
        List<Problem> problems) {

    /** Copies the problems, so the value stays immutable. */
    public ParsedDocument {
        problems = List.copyOf(problems);
    }

    /** Whether reading produced an error. */
    public boolean hasErrors() {
        return problems.stream().anyMatch(Problem::isError);
    }
}
