package dev.stockade.api.governance;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.governance.BindingService.Binding;
import dev.stockade.api.governance.PolicyService.StoredPolicy;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.ManagedInference;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Response bodies of the policy and binding routes and tools. A field marked {@code NON_NULL} is left out when it
 * does not apply (an org policy has no {@code projectId}; a binding names either {@code userId} or
 * {@code apiTokenId}), as the API always answered.
 */
public final class GovernanceViews {
    private GovernanceViews() {
    }

    /** A stored policy: {@code scope} is {@code org} or {@code project}. */
    @Introspected
    public record PolicyView(UUID id, String scope, UUID orgId,
                             @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID projectId, String name,
                             JsonNode policy, Instant createdAt, Instant updatedAt) {
        static PolicyView of(StoredPolicy p) {
            return new PolicyView(p.id(), p.projectId() == null ? "org" : "project", p.orgId(), p.projectId(),
                    p.name(), p.policy(), p.createdAt(), p.updatedAt());
        }
    }

    /** A policy bound to a user or to an API token, at org or project level. */
    @Introspected
    public record BindingView(UUID id, String scope, UUID orgId,
                              @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID projectId, UUID policyId,
                              String policyName, @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID userId,
                              @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID apiTokenId,
                              Instant createdAt) {
        static BindingView of(Binding b) {
            boolean user = b.subjectType().equals(BindingService.USER);
            return new BindingView(b.id(), b.projectId() == null ? "org" : "project", b.orgId(), b.projectId(),
                    b.policyId(), b.policyName(), user ? b.subjectId() : null, user ? null : b.subjectId(),
                    b.createdAt());
        }
    }

    /**
     * One case of drift: {@code kind} {@code binding} (an identity bound at project level, with its
     * {@code bindingIds}) or {@code sandbox}.
     */
    @Introspected
    public record DriftCase(String kind, UUID projectId,
                            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID userId,
                            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID apiTokenId,
                            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<UUID> bindingIds,
                            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID sandboxId,
                            Effective.Drift drift) {
    }

    /** The effective policy of one identity in a project, and whose it is. */
    @Introspected
    public record SubjectEffective(List<String> domains, Map<String, String> sandboxEnv,
                                   List<ConnectorGrant> connectorGrants, ManagedInference managedInference,
                                   Effective.Drift drift, String subjectType, UUID subjectId) {
        static SubjectEffective of(Effective.View v, String subjectType, UUID subjectId) {
            return new SubjectEffective(v.domains(), v.sandboxEnv(), v.connectorGrants(), v.managedInference(),
                    v.drift(), subjectType, subjectId);
        }
    }

    /** Stored policies of an organization or a project. */
    @Introspected
    public record Policies(List<PolicyView> items) {
    }

    /** Policy bindings at one level. */
    @Introspected
    public record Bindings(List<BindingView> items) {
    }

    /** Every case of drift in an organization. */
    @Introspected
    public record DriftCases(List<DriftCase> items) {
    }
}
