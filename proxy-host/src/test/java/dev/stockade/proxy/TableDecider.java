package dev.stockade.proxy;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Test double standing for the compiled decision program (policy-eval's {@code DecisionProgram},
 * not yet merged into this branch): exact host entries in order, an optional caller fence, and one
 * request rule that denies paths under {@code /forbidden}. It exists only to drive the proxy.
 */
final class TableDecider implements Decider {
    static final String POLICY = "test-policy";

    private record Entry(String host, Transport transport, Set<String> callers) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private Set<String> bound = Set.of();

    TableDecider upstream(String host) {
        entries.add(new Entry(host, Transport.UPSTREAM, null));
        return this;
    }

    TableDecider direct(String host) {
        entries.add(new Entry(host, Transport.DIRECT, null));
        return this;
    }

    TableDecider upstreamFenced(String host, Set<String> callers) {
        entries.add(new Entry(host, Transport.UPSTREAM, callers));
        return this;
    }

    TableDecider binding(Set<String> credentialNames) {
        bound = credentialNames;
        return this;
    }

    @Override
    public Decision decideConnection(EgressRequest r) {
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (e.host.equals(r.host())) {
                if (e.callers != null && !e.callers.contains(r.caller())) {
                    return new Decision(Verdict.DENY, null, false, ReasonCode.CALLER_NOT_LISTED, POLICY, i, -1,
                            "caller not listed");
                }
                return new Decision(Verdict.ALLOW, e.transport, e.transport == Transport.UPSTREAM,
                        ReasonCode.ENTRY_ALLOW, POLICY, i, -1, "entry allows");
            }
        }
        return Decision.deny(ReasonCode.DEFAULT_DENY, "no entry matched");
    }

    @Override
    public Decision decide(EgressRequest r) {
        Decision c = decideConnection(r);
        if (!c.allowed()) {
            return c;
        }
        if (r.path().startsWith("/forbidden")) {
            return new Decision(Verdict.DENY, null, false, ReasonCode.NO_RULE_MATCHED, POLICY, c.entryIndex(), -1,
                    "no rule matched");
        }
        return new Decision(Verdict.ALLOW, c.transport(), c.intercept(), ReasonCode.RULE_ALLOW, POLICY,
                c.entryIndex(), 0, "rule allows");
    }

    @Override
    public Set<String> boundCredentials() {
        return bound;
    }
}
