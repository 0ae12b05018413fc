package dev.stockade.policy.compiler;

import static dev.stockade.policy.compiler.Policies.allow;
import static dev.stockade.policy.compiler.Policies.callers;
import static dev.stockade.policy.compiler.Policies.deny;
import static dev.stockade.policy.compiler.Policies.direct;
import static dev.stockade.policy.compiler.Policies.policy;
import static dev.stockade.policy.compiler.Policies.rules;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.CredentialBinding;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.ManagedInference;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Provider;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Managed inference, the env plan, connector grants, drift and describe rows. */
class ResolutionTest {
    private static final String C1 = "11111111-1111-1111-1111-111111111111";

    private static Policy mi(String name, ManagedInference mi) {
        return Policy.named(name).withManagedInference(mi);
    }

    private static ManagedInference on(Provider provider, List<Provider> providers, Map<String, String> env) {
        return new ManagedInference(true, provider, providers, env);
    }

    private static Resolution resolve(InstallFacts install, List<Policy> ceiling, Policy... grants) {
        return Resolver.resolve(install, ceiling, List.of(grants));
    }

    @Test
    void twoBackendsOpenaiPrimaryAsInTheFormatExample() {
        Resolution r = resolve(new InstallFacts(List.of(Provider.OPENAI, Provider.AZURE), false), List.of(),
                mi("p", on(Provider.OPENAI, List.of(Provider.OPENAI, Provider.AZURE),
                        Map.of("ANTHROPIC_MODEL", "claude-x"))));
        assertThat(r.managedInference().enabled()).isTrue();
        assertThat(r.managedInference().provider()).isEqualTo(Provider.OPENAI);
        assertThat(r.managedInference().providers()).containsExactly(Provider.OPENAI, Provider.AZURE);
        assertThat(r.sandboxEnv()).containsEntry("PLATFORM_MANAGED_INFERENCE_PROVIDER", "openai")
                .containsEntry("ANTHROPIC_MODEL", "claude-x")
                .containsEntry("PLATFORM_MANAGED_INFERENCE_MODEL", "claude-x")
                .containsEntry("PLATFORM_INFERENCE_OPENAI_BASE_URL", "${PLATFORM_API_URL}/llm/openai")
                .containsEntry("PLATFORM_INFERENCE_AZURE_API_KEY", "__platform_inference_key:azure__")
                .containsKey("PLATFORM_INFERENCE_AZURE_BASE_URL")
                .doesNotContainKey("PLATFORM_INFERENCE_BEDROCK_BASE_URL");
    }

    @Test
    void withinALayerTheLastPolicyWithAnExplicitProviderSuppliesBoth() {
        Policy first = mi("a", on(Provider.OPENAI, List.of(Provider.OPENAI, Provider.AZURE), null));
        Policy second = mi("b", on(Provider.LITELLM, null, null));
        Policy noProvider = mi("c", on(null, null, null));
        Resolution r = resolve(InstallFacts.defaults(), List.of(), first, second, noProvider);
        assertThat(r.managedInference().provider()).isEqualTo(Provider.LITELLM);
        assertThat(r.managedInference().providers()).containsExactly(Provider.LITELLM);
        assertThat(r.sandboxEnv()).doesNotContainKey("PLATFORM_INFERENCE_AZURE_BASE_URL");
    }

    @Test
    void aProjectSelectionReplacesTheCeilingListAndTheCeilingDecidesOnlyWhetherItIsOn() {
        Policy ceiling = mi("org", on(Provider.AZURE, List.of(Provider.AZURE, Provider.OPENAI), null));
        Policy project = mi("proj", on(Provider.OPENROUTER, null, null));
        Resolution r = resolve(InstallFacts.defaults(), List.of(ceiling), project);
        assertThat(r.managedInference().providers()).containsExactly(Provider.OPENROUTER);
        Resolution inherits = resolve(InstallFacts.defaults(), List.of(ceiling), mi("proj", on(null, null, null)));
        assertThat(inherits.managedInference().providers()).containsExactly(Provider.AZURE, Provider.OPENAI);
        Policy ceilingOff = mi("org", new ManagedInference(false, null, null, null));
        assertThat(resolve(InstallFacts.defaults(), List.of(ceilingOff), project).managedInference().enabled())
                .isFalse();
        assertThat(resolve(InstallFacts.defaults(), List.of(ceiling)).managedInference().enabled()).isFalse();
    }

    @Test
    void defaultProviderRule() {
        Policy p = mi("p", on(null, null, null));
        assertThat(resolve(InstallFacts.defaults(), List.of(), p).managedInference().provider())
                .isEqualTo(Provider.BEDROCK);
        InstallFacts noBedrock = new InstallFacts(List.of(Provider.AZURE, Provider.OPENAI), false);
        assertThat(resolve(noBedrock, List.of(), p).managedInference().provider()).isEqualTo(Provider.AZURE);
        InstallFacts ambient = new InstallFacts(List.of(Provider.AZURE), true);
        assertThat(resolve(ambient, List.of(), p).managedInference().provider()).isEqualTo(Provider.BEDROCK);
        InstallFacts nothing = new InstallFacts(List.of(), false);
        assertThat(resolve(nothing, List.of(), p).managedInference().enabled()).isFalse();
    }

    @Test
    void managedInferenceOffLeavesNoPlatformVariables() {
        Policy p = new Policy("p", null, null, null, null, null, null, null, null, null,
                Map.of("PLATFORM_INFERENCE_FAKE_BASE_URL", "x", "A", "1"));
        Resolution r = resolve(InstallFacts.defaults(), List.of(), p);
        assertThat(r.managedInference().enabled()).isFalse();
        assertThat(r.sandboxEnv()).containsOnlyKeys("A");
    }

    @Test
    void envLaterPoliciesWinAndCredentialsGetDeterministicSentinels() {
        Map<String, String> first = new LinkedHashMap<>();
        first.put("A", "1");
        first.put("B", "1");
        Policy a = new Policy("a", null, null, null, null, List.of(new CredentialBinding("github", "GH_TOKEN")),
                null, null, null, null, first);
        Policy b = Policy.named("b").withEnv(Map.of("B", "2"));
        Resolution r = resolve(InstallFacts.defaults(), List.of(), a, b);
        assertThat(r.sandboxEnv()).containsEntry("A", "1").containsEntry("B", "2");
        String uuid = UUID.nameUUIDFromBytes("github".getBytes(StandardCharsets.UTF_8)).toString();
        assertThat(r.sandboxEnv()).containsEntry("GH_TOKEN", "__platform_cred:" + uuid + "__");
        assertThat(Resolver.credentialSentinel("github")).isEqualTo("__platform_cred:" + uuid + "__");
        assertThat(List.copyOf(r.sandboxEnv().keySet())).containsExactly("A", "B", "GH_TOKEN");
    }

    @Test
    void connectorToolsIntersectAndAnEmptyListDeniesAll() {
        Policy a = new Policy("a", null, null, null, null, null,
                List.of(new ConnectorGrant(C1, List.of("search", "read", "write"), null),
                        new ConnectorGrant("22222222-2222-2222-2222-222222222222", List.of(), null)),
                null, null, null, null);
        Policy b = new Policy("b", null, null, null, null, null,
                List.of(new ConnectorGrant(C1, List.of("read", "search", "*"), null)), null, null, null, null);
        List<ConnectorGrant> grants = resolve(InstallFacts.defaults(), List.of(), a, b).connectorGrants();
        assertThat(grants).hasSize(2);
        assertThat(grants.get(0).allowedTools()).containsExactly("search", "read");
        assertThat(grants.get(1).allowedTools()).isEmpty();
        Policy ceiling = new Policy("org", null, null, null, null, null,
                List.of(new ConnectorGrant(C1, List.of("read"), null)), null, null, null, null);
        List<ConnectorGrant> clipped = resolve(InstallFacts.defaults(), List.of(ceiling), a).connectorGrants();
        assertThat(clipped.get(0).allowedTools()).containsExactly("read");
        assertThat(clipped.get(1).allowedTools()).isEmpty();
    }

    @Test
    void driftNamesBlockedAndNarrowedDomains() {
        Policy ceiling = policy("org", deny("evil.com"), callers("*.github.com", "/usr/bin/git"),
                allow("api.example.com"), direct("files.example.org"));
        Policy project = policy("proj", allow("api.github.com"), allow("evil.com"), allow("other.net"),
                allow("*.example.com"), direct("files.example.org"));
        DriftReport drift = resolve(InstallFacts.defaults(), List.of(ceiling), project).drift();
        assertThat(drift.blockedDomainDetails()).extracting(BlockedDomain::pattern, BlockedDomain::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("evil.com", "ceiling-denies"),
                        org.assertj.core.groups.Tuple.tuple("other.net", "outside-ceiling"));
        assertThat(drift.narrowedDomains()).extracting(NarrowedDomain::pattern)
                .containsExactly("api.github.com", "*.example.com");
        assertThat(drift.narrowedDomains().get(0).reasons()).containsExactly("callers-narrowed");
        assertThat(drift.narrowedDomains().get(1).reasons()).containsExactly("partly-outside-ceiling");
        assertThat(resolve(InstallFacts.defaults(), List.of(), project).drift().isEmpty()).isTrue();
    }

    @Test
    void describeRowOfOneEntryFollowsFormat() {
        Rule graphql = new Rule(null, "/graphql", new GraphqlFence(OperationType.QUERY, "Get*",
                List.of("repository", "viewer"), null));
        DomainEntry e = new DomainEntry("api.github.com", Verdict.ALLOW, Transport.UPSTREAM, "https", null,
                List.of(graphql), List.of("/usr/bin/gh"));
        assertThat(DescribeRows.row(e)).isEqualTo("api.github.com  allow  https/upstream  callers=/usr/bin/gh  "
                + "rules=graphql:query /graphql name=Get* fields=repository,viewer");
        assertThat(DescribeRows.row(DomainEntry.deny("x.com"))).isEqualTo("x.com  deny  */-  callers=any  rules=any");
        assertThat(DescribeRows.row(DomainEntry.allow("x.com").withBinaries(List.of())
                .withRules(List.of(Rule.of("GET", null), Rule.of(null, "/a/**")))))
                .isEqualTo("x.com  allow  */upstream  callers=none  rules=GET *;* /a/**");
    }

    @Test
    void effectiveRowsOfOnePolicyAreItsOwnRows() {
        Policy p = policy("p", deny("blocked.example.com"), allow("*.example.com"), direct("files.example.org"));
        assertThat(DescribeRows.of(resolve(InstallFacts.defaults(), List.of(), p).effective())).containsExactly(
                "blocked.example.com  deny  */-  callers=any  rules=any",
                "*.example.com  allow  */upstream  callers=any  rules=any",
                "files.example.org  allow  */direct  callers=any  rules=any");
    }

    @Test
    void effectiveRowsConjoinWhatSeveralPoliciesSayAboutOneHost() {
        Policy a = policy("a", rules("api.github.com", Rule.of("GET", "/repos/**")),
                callers("*.github.com", "/usr/bin/git", "/usr/bin/gh"));
        Policy b = policy("b", callers("api.github.com", "/usr/bin/gh"), allow("b.com"));
        Policy ceiling = policy("org", rules("*.github.com", Rule.of("GET", null)), allow("b.com"));
        List<String> rows = DescribeRows.of(resolve(InstallFacts.defaults(), List.of(ceiling), a, b).effective());
        assertThat(rows).containsExactly(
                "api.github.com  allow  */upstream  callers=/usr/bin/gh  rules=GET /repos/** & GET *",
                "*.github.com  allow  */upstream  callers=/usr/bin/git,/usr/bin/gh  rules=GET *",
                "b.com  allow  */upstream  callers=any  rules=any");
    }
}
