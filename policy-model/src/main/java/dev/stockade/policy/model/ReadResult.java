package dev.stockade.policy.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A policy document read and validated: the bound policy when valid, the tree and source map either
 * way, and every problem found, sorted by position.
 */
public record ReadResult(String sourceName, String text, Policy policy, JsonNode tree, SourceMap sourceMap,
        List<Problem> problems) {

    /** Copies the problems, so the result stays immutable. */
    public ReadResult {
        problems = List.copyOf(problems);
    }

    /** Whether the document has no error (warnings allowed). */
    public boolean valid() {
        return problems.stream().noneMatch(Problem::isError);
    }
}
