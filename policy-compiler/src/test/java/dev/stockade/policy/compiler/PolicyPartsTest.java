package dev.stockade.policy.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Resolving prepared parts ({@link Resolver#resolveParts}) decides exactly like resolving the whole list afresh
 * ({@link Resolver#resolve}), before and after one document of the list changes (or moves into the ceiling) while the
 * others keep the parts prepared before the change, and again once the change is reverted: the resolutions are equal,
 * and both programs give the same decision (verdict, reason, policy, entry, rule, detail) and the same row for random
 * requests, which the naive {@link ReferenceEvaluator} also agrees with. QuickTheories with a fixed seed, on
 * {@link DifferentialTest}'s random policies.
 */
class PolicyPartsTest {
    private static final long SEED = 0x5EED_0030L;

    /**
     * A list of documents, then one change to it: {@code slot} below the list's size replaces that document with
     * {@code replacement}; at the size, the last grant moves into the ceiling (the same document in another role).
     */
    record Scenario(List<Policy> ceiling, List<Policy> grants, Policy replacement, int slot,
                    List<EgressRequest> requests) {
    }

    private static Gen<Scenario> scenarios() {
        return lists().of(DifferentialTest.policy("c")).ofSizeBetween(0, 2).zip(
                lists().of(DifferentialTest.policy("g")).ofSizeBetween(1, 3), DifferentialTest.policy("r"),
                integers().between(0, 5), lists().of(DifferentialTest.requests()).ofSize(12), Scenario::new);
    }

    /** Parts by document content, as a follower keeps them by content hash: equal documents share one part. */
    private final Map<Policy, PolicyPart> parts = new HashMap<>();
    private final Map<ReasonCode, Integer> reasons = new EnumMap<>(ReasonCode.class);

    @Test
    void partsReusedAcrossAChangeDecideExactlyLikeTheWholeList() {
        QuickTheory.qt().withFixedSeed(SEED).withExamples(800).forAll(scenarios()).checkAssert(s -> {
            decideAlike(s.ceiling(), s.grants(), s.requests());
            List<Policy> ceiling = new ArrayList<>(s.ceiling());
            List<Policy> grants = new ArrayList<>(s.grants());
            int slot = s.slot() % (ceiling.size() + grants.size() + 1);
            if (slot < grants.size()) {
                grants.set(slot, s.replacement());
            } else if (slot < grants.size() + ceiling.size()) {
                ceiling.set(slot - grants.size(), s.replacement());
            } else if (grants.size() > 1) {
                ceiling.add(grants.remove(grants.size() - 1));
            }
            decideAlike(ceiling, grants, s.requests());
            decideAlike(s.ceiling(), s.grants(), s.requests()); // the change reverted: every part reused
        });
        // control: the random lists reach the interesting outcomes, or equality says little
        for (ReasonCode r : List.of(ReasonCode.ENTRY_ALLOW, ReasonCode.ENTRY_DENY, ReasonCode.CEILING_CLIPPED,
                ReasonCode.RULE_ALLOW, ReasonCode.NO_RULE_MATCHED, ReasonCode.DEFAULT_DENY)) {
            assertThat(reasons.getOrDefault(r, 0)).as("decisions with %s among %s", r, reasons).isGreaterThan(50);
        }
        assertThat(parts.size()).as("distinct documents prepared").isGreaterThan(800);
    }

    /** The benchmark's shape: a shared policy and 100 entries of a sandbox's own; the shared one is rewritten. */
    @Test
    void aRewriteOfTheSharedPolicyKeepsTheSandboxPartAndDecidesLikeTheWholeList() {
        List<DomainEntry> entries = new ArrayList<>();
        for (int j = 0; j < 100; j++) {
            String host = "h" + j + ".s1.example.com";
            entries.add(j == 7 ? DomainEntry.deny(host) : DomainEntry.allow(host));
        }
        entries.add(DomainEntry.allow("*.wild.s1.example.com"));
        Policy own = Policy.named("own-1").withAllowedDomains(entries);
        Policy before = new Policy("shared", null, Verdict.DENY, null, List.of(DomainEntry.allow("origin.bench")),
                null, null, null, null, null, null);
        // the rewrite speaks for hosts the sandbox's own policy names too: a deny, an allow, and a wildcard over them
        Policy after = before.withAllowedDomains(List.of(DomainEntry.allow("origin.bench"),
                DomainEntry.deny("h3.s1.example.com"), DomainEntry.allow("h7.s1.example.com"),
                DomainEntry.allow("*.s1.example.com"), DomainEntry.allow("round-0.example.com")));
        List<EgressRequest> requests = new ArrayList<>();
        for (String host : List.of("origin.bench", "h3.s1.example.com", "h7.s1.example.com", "h8.s1.example.com",
                "x.wild.s1.example.com", "round-0.example.com", "other.example.com", "s1.example.com")) {
            requests.add(Policies.get("https://" + host + "/a"));
        }
        PolicyPart ownPart = part(own);
        decideAlike(List.of(), List.of(before, own), requests);
        decideAlike(List.of(), List.of(after, own), requests);
        assertThat(part(own)).as("the sandbox's part is prepared once").isSameAs(ownPart);
        DecisionProgram program = program(List.of(), List.of(after, own));
        assertThat(program.decide(requests.get(1)).reason()).isEqualTo(ReasonCode.ENTRY_DENY);
        assertThat(program.decide(requests.get(2)).reason()).as("the sandbox's own deny still speaks")
                .isEqualTo(ReasonCode.ENTRY_DENY);
        assertThat(program.decide(requests.get(3)).allowed()).isTrue();
        assertThat(program.decide(requests.get(6)).reason()).isEqualTo(ReasonCode.DEFAULT_DENY);
    }

    @Test
    void aPartRefusesNoPolicyAndNamesItsPolicy() {
        assertThatThrownBy(() -> PolicyPart.of(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("policy");
        Policy p = Policies.policy("named", Policies.allow("a.com"));
        assertThat(PolicyPart.of(p).policy()).isSameAs(p);
        assertThat(Resolver.resolveParts(null, null, null)).isEqualTo(Resolver.resolve(null, null, null));
    }

    private PolicyPart part(Policy p) {
        return parts.computeIfAbsent(p, PolicyPart::of);
    }

    private static DecisionProgram program(List<Policy> ceiling, List<Policy> grants) {
        return PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), ceiling, grants),
                CompileOptions.defaults());
    }

    private void decideAlike(List<Policy> ceiling, List<Policy> grants, List<EgressRequest> requests) {
        List<PolicyPart> ceilingParts = ceiling.stream().map(this::part).toList();
        List<PolicyPart> grantParts = grants.stream().map(this::part).toList();
        Resolution whole;
        try {
            whole = Resolver.resolve(InstallFacts.defaults(), ceiling, grants);
        } catch (ResolutionTooLarge tooLarge) {
            assertThatThrownBy(() -> Resolver.resolveParts(InstallFacts.defaults(), ceilingParts, grantParts))
                    .isInstanceOf(ResolutionTooLarge.class);
            return;
        }
        Resolution composed = Resolver.resolveParts(InstallFacts.defaults(), ceilingParts, grantParts);
        assertThat(composed).isEqualTo(whole);
        DecisionProgram expected = PolicyCompiler.compile(whole, CompileOptions.defaults());
        DecisionProgram actual = PolicyCompiler.compile(composed, CompileOptions.defaults());
        for (EgressRequest r : requests) {
            Decision d = actual.decide(r);
            reasons.merge(d.reason(), 1, Integer::sum);
            assertThat(d).as("request %s", r).isEqualTo(expected.decide(r));
            assertThat(new ReferenceEvaluator.Outcome(d.verdict(), d.allowed() ? d.transport() : null))
                    .isEqualTo(ReferenceEvaluator.decide(ceiling, grants, r, false));
            EgressRequest conn = EgressRequest.connection(r.scheme(), r.host(), r.port(), null, r.caller());
            assertThat(actual.decideConnection(conn)).isEqualTo(expected.decideConnection(conn));
            assertThat(actual.entryIndexOf(r)).isEqualTo(expected.entryIndexOf(r));
        }
    }
}
