package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.FenceReason;
import dev.stockade.policy.graphql.FenceResult;

/** A request that cannot reach the fences (unreadable, over a limit...): carries its deny, no stack. */
final class Denied extends Exception {

    private final FenceReason reason;
    private final String detail;

    Denied(FenceReason reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
        this.detail = detail;
    }

    FenceResult result() {
        return FenceResult.deny(reason, detail);
    }

    Prepared prepared() {
        return Prepared.failed(reason, detail);
    }
}
