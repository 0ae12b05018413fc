package dev.stockade.policy.compiler;

import dev.stockade.policy.compiler.internal.BoundCredentials;
import dev.stockade.policy.compiler.internal.CeilingDrift;
import dev.stockade.policy.compiler.internal.ConnectorMerge;
import dev.stockade.policy.compiler.internal.DomainMerge;
import dev.stockade.policy.compiler.internal.EnvPlan;
import dev.stockade.policy.compiler.internal.IndexedEntries;
import dev.stockade.policy.compiler.internal.InferenceSelection;
import dev.stockade.policy.compiler.internal.MaskingMerge;
import dev.stockade.policy.eval.EffectivePolicy;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.CredentialPlaceholder;
import dev.stockade.policy.model.ManagedInference;
import dev.stockade.policy.model.Policy;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Resolution (spec "Scope, resolution and ceiling"): merges the policies that reach an agent and clips
 * them by the organization ceiling. Runs its stages in order, each a pure function of the inputs:
 * domains, drift, managed inference, environment, connectors, bound credentials, PII masking.
 */
public final class Resolver {
    private Resolver() {
    }

    /**
     * Resolves {@code grants} (in attachment order, the sandbox's embedded policy last) under
     * {@code ceiling} (the org ceiling's policies; empty or null: nothing is clipped). Policies are
     * expected to be valid; null arguments count as empty.
     *
     * @throws ResolutionTooLarge when the policies resolve to more rows or need more steps than the bounds
     */
    public static Resolution resolve(InstallFacts install, List<Policy> ceiling, List<Policy> grants) {
        InstallFacts facts = install == null ? InstallFacts.defaults() : install;
        List<Policy> ceil = ceiling == null ? List.of() : ceiling.stream().filter(Objects::nonNull).toList();
        List<Policy> grant = grants == null ? List.of() : grants.stream().filter(Objects::nonNull).toList();
        List<IndexedEntries> ceilEntries = DomainMerge.indexed(ceil);
        EffectivePolicy effective = DomainMerge.mergeIndexed(ceilEntries, DomainMerge.indexed(grant));
        return stages(facts, ceilEntries, ceil, grant, effective);
    }

    /**
     * {@link #resolve} over documents prepared beforehand ({@link PolicyPart}): the same resolution, without parsing
     * and indexing each document's entries again. Null lists count as empty; null parts are skipped.
     *
     * @throws ResolutionTooLarge as {@link #resolve} does
     */
    public static Resolution resolveParts(InstallFacts install, List<PolicyPart> ceiling, List<PolicyPart> grants) {
        InstallFacts facts = install == null ? InstallFacts.defaults() : install;
        List<PolicyPart> ceil = ceiling == null ? List.of() : ceiling.stream().filter(Objects::nonNull).toList();
        List<PolicyPart> grant = grants == null ? List.of() : grants.stream().filter(Objects::nonNull).toList();
        List<IndexedEntries> ceilEntries = ceil.stream().map(PolicyPart::entries).toList();
        EffectivePolicy effective = DomainMerge.mergeIndexed(ceilEntries,
                grant.stream().map(PolicyPart::entries).toList());
        return stages(facts, ceilEntries, ceil.stream().map(PolicyPart::policy).toList(),
                grant.stream().map(PolicyPart::policy).toList(), effective);
    }

    /** The stages after the domain merge, in order. */
    private static Resolution stages(InstallFacts facts, List<IndexedEntries> ceilEntries, List<Policy> ceil,
                                     List<Policy> grant, EffectivePolicy effective) {
        DriftReport drift = CeilingDrift.report(ceilEntries, grant);
        ManagedInference inference = InferenceSelection.select(facts, ceil, grant);
        Map<String, String> env = EnvPlan.plan(grant, inference);
        List<ConnectorGrant> connectors = ConnectorMerge.merge(ceil, grant);
        return new Resolution(effective, drift, env, connectors, inference, BoundCredentials.of(grant),
                MaskingMerge.merge(ceil, grant));
    }

    /**
     * The placeholder a credential's {@code envVarKey} receives: {@code __platform_cred:<uuid>__}
     * ({@link CredentialPlaceholder#forName}).
     */
    public static String credentialSentinel(String credentialName) {
        return CredentialPlaceholder.forName(credentialName).text();
    }
}
