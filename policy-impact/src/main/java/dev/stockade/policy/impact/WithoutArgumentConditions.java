package dev.stockade.policy.impact;

import dev.stockade.policy.eval.EffectiveComponent;
import dev.stockade.policy.eval.EffectiveEntry;
import dev.stockade.policy.eval.EffectivePolicy;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.Rule;
import java.util.ArrayList;
import java.util.List;

/**
 * A candidate with the argument conditions of its GraphQL fences dropped, everything else as written. The trail never
 * keeps argument values, so replay judges a recorded operation under both: the candidate itself (where a condition on
 * a field the operation uses cannot hold) and this (where it always holds). A fence admits monotonically in its
 * conditions, so the real verdict lies between the two; when they agree it is known exactly.
 */
final class WithoutArgumentConditions {
    private WithoutArgumentConditions() {
    }

    /** {@code effective} without argument conditions; the same instance when it has none. */
    static EffectivePolicy of(EffectivePolicy effective) {
        if (effective == null || !hasConditions(effective)) {
            return effective;
        }
        List<EffectiveEntry> entries = new ArrayList<>(effective.entries().size());
        for (EffectiveEntry row : effective.entries()) {
            List<EffectiveComponent> components = new ArrayList<>(row.components().size());
            for (EffectiveComponent c : row.components()) {
                components.add(new EffectiveComponent(c.source(), strip(c.entry())));
            }
            entries.add(new EffectiveEntry(row.patterns(), row.verdict(), row.transport(), row.reason(),
                    row.decidedBy(), components));
        }
        return new EffectivePolicy(entries, effective.defaultVerdict(), effective.defaultTransport(),
                effective.defaultReason());
    }

    private static boolean hasConditions(EffectivePolicy effective) {
        return effective.entries().stream().flatMap(row -> row.components().stream())
                .map(c -> c.entry().rules()).filter(rules -> rules != null).flatMap(List::stream)
                .anyMatch(r -> r.graphql() != null && r.graphql().arguments() != null
                        && !r.graphql().arguments().isEmpty());
    }

    private static DomainEntry strip(DomainEntry entry) {
        if (entry.rules() == null) {
            return entry;
        }
        List<Rule> rules = new ArrayList<>(entry.rules().size());
        for (Rule r : entry.rules()) {
            GraphqlFence g = r.graphql();
            rules.add(g == null || g.arguments() == null ? r : new Rule(r.method(), r.path(),
                    new GraphqlFence(g.operationType(), g.operationName(), g.fields(), null)));
        }
        return entry.withRules(rules);
    }
}
