package dev.stockade.policy.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The outcome of an update: whether it was applied, the stored policy's JSON afterwards (the stored
 * value unchanged when not applied; {@code NullNode} when the policy was dropped or none is stored),
 * and the problems, with pointers relative to the policy object.
 */
public record UpdateResult(boolean applied, JsonNode result, List<Problem> problems) {

    /** Copies the problems, so the result stays immutable. */
    public UpdateResult {
        problems = List.copyOf(problems);
    }
}
