package dev.stockade.bench;

import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.impact.EgressListener;
import dev.stockade.policy.impact.RecordedDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The requests a replay decides, rebuilt from recorded egress decisions the way policy-impact's replay rebuilds them
 * (docs/policy-impact.md, "What is replayable"), so that a plain decision benchmark runs on the trail's own traffic.
 */
final class RecordedRequests {
    private RecordedRequests() {
    }

    /** One request per egress entry whose recorded reason is a core reason; tool calls and the rest are left out. */
    static EgressRequest[] of(RecordedDecision[] trail) {
        List<EgressRequest> out = new ArrayList<>();
        for (RecordedDecision r : trail) {
            if (r instanceof RecordedDecision.Egress e && e.reason() != null && ReasonCode.fromCode(e.reason()) != null) {
                EgressListener l = e.listener();
                out.add(l.requestLevel()
                        ? new EgressRequest(l.scheme(), e.host(), e.port(), null, e.caller(), e.method(), e.path(),
                                null, Map.of(), null, false)
                        : EgressRequest.connection(l.scheme(), e.host(), e.port(), l.sniIsHost() ? e.host() : null,
                                e.caller()));
            }
        }
        return out.toArray(EgressRequest[]::new);
    }
}
