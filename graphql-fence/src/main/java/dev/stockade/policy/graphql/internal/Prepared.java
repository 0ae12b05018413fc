package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.FenceReason;
import dev.stockade.policy.graphql.FenceResult;
import java.util.List;

/**
 * A request read and parsed once: either the deny that reading or parsing produced (fences never see
 * such a request) or every operation that must pass. Shared by every fence set judging the request.
 *
 * @param failure    the deny, or {@code null}
 * @param operations per submitted request (batch element), the operations of its document to judge
 */
public record Prepared(FenceResult failure, List<List<PreparedOperation>> operations) {

    public static Prepared failed(FenceReason reason, String detail) {
        return new Prepared(FenceResult.deny(reason, detail), List.of());
    }

    public static Prepared of(List<List<PreparedOperation>> operations) {
        return new Prepared(null, List.copyOf(operations));
    }
}
