package dev.stockade.api.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.governance.BindingService.Binding;
import dev.stockade.policy.compiler.Resolution;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Binding drift (spec: "cases where a project asked for more than it got"): for every identity bound at project
 * level, and every sandbox, the core's drift report of what reaches it against the org ceiling; only cases with
 * drift are listed. Org-level bindings are not checked on their own: org policies are the ceiling.
 */
@Singleton
public class BindingDrift {
    private final BindingService bindings;
    private final Effective effective;
    private final EnforcementStore enforcement;

    public BindingDrift(BindingService bindings, Effective effective, EnforcementStore enforcement) {
        this.bindings = bindings;
        this.effective = effective;
        this.enforcement = enforcement;
    }

    /** The effective policy view of one identity in one project. */
    public Effective.View effective(UUID orgId, UUID projectId, String subjectType, UUID subjectId) {
        return Effective.view(resolveFor(orgId, projectId, subjectType, subjectId));
    }

    /** Every case of drift in the organization, bindings first (by project and subject), then sandboxes. */
    public List<GovernanceViews.DriftCase> report(UUID orgId) {
        Map<String, List<Binding>> bySubject = new LinkedHashMap<>();
        for (Binding b : bindings.allOfOrg(orgId)) {
            if (b.projectId() != null) {
                bySubject.computeIfAbsent(b.projectId() + "/" + b.subjectType() + "/" + b.subjectId(),
                        k -> new ArrayList<>()).add(b);
            }
        }
        List<GovernanceViews.DriftCase> items = new ArrayList<>();
        for (List<Binding> group : bySubject.values()) {
            Binding first = group.get(0);
            Resolution r = resolveFor(orgId, first.projectId(), first.subjectType(), first.subjectId());
            if (!r.drift().isEmpty()) {
                boolean user = first.subjectType().equals(BindingService.USER);
                items.add(new GovernanceViews.DriftCase("binding", first.projectId(), user ? first.subjectId() : null,
                        user ? null : first.subjectId(), group.stream().map(Binding::id).toList(), null,
                        Effective.driftView(r)));
            }
        }
        items.addAll(sandboxes(orgId));
        return items;
    }

    private List<GovernanceViews.DriftCase> sandboxes(UUID orgId) {
        List<GovernanceViews.DriftCase> items = new ArrayList<>();
        List<JsonNode> ceiling = effective.ceiling(orgId);
        for (EnforcementStore.Change c : enforcement.current(orgId)) {
            Resolution r = effective.resolve(orgId, new Effective.Documents(ceiling, c.enforcement().grantDocuments()));
            if (!r.drift().isEmpty()) {
                items.add(new GovernanceViews.DriftCase("sandbox", c.enforcement().projectId(), null, null, null,
                        c.sandboxId(), Effective.driftView(r)));
            }
        }
        return items;
    }

    private Resolution resolveFor(UUID orgId, UUID projectId, String subjectType, UUID subjectId) {
        return effective.resolve(orgId, new Effective.Documents(effective.ceiling(orgId),
                effective.grantsFor(orgId, projectId, subjectType, subjectId)));
    }
}
