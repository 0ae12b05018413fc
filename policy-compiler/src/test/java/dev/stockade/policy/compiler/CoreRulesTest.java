package dev.stockade.policy.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.compiler.ConnectorReach.GrantedConnector;
import dev.stockade.policy.compiler.ConnectorReach.ProjectGrants;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.CredentialBinding;
import dev.stockade.policy.model.Policy;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The rules moved from the hosts into the core: bound credentials, enforcement, connector reach across projects. */
class CoreRulesTest {
    private static final UUID ORG = UUID.fromString("00000000-0000-0000-0000-0000000000a1");
    private static final UUID OTHER_ORG = UUID.fromString("00000000-0000-0000-0000-0000000000a2");
    private static final UUID P1 = UUID.fromString("00000000-0000-0000-0000-0000000000b1");
    private static final UUID P2 = UUID.fromString("00000000-0000-0000-0000-0000000000b2");
    private static final String GH = "7d0b3c1e-8f2a-4b6d-9c1e-2f3a4b5c6d7e";
    private static final String JIRA = "11111111-2222-4333-8444-555555555555";
    private static final String CRED_A = "0b7e4c1d-2a3f-4e5d-8c9b-1a2b3c4d5e6f";
    private static final String CRED_B = "0b7e4c1d-2a3f-4e5d-8c9b-1a2b3c4d5e70";

    private static Policy binding(String name, CredentialBinding... bindings) {
        return new Policy(name, null, null, null, null, List.of(bindings), null, null, null, null, null);
    }

    @Test
    void boundCredentialsAreTheGrantsNamesOnceInFirstBoundOrderAndNotTheCeilings() {
        Policy a = binding("a", new CredentialBinding("github", "GH_TOKEN"), new CredentialBinding("npm", null));
        Policy b = binding("b", new CredentialBinding("github", "GITHUB_TOKEN"), new CredentialBinding(null, "X"));
        Policy ceiling = binding("org", new CredentialBinding("vault", "V"));
        Resolution r = Resolver.resolve(InstallFacts.defaults(), List.of(ceiling), List.of(a, b));
        assertThat(r.boundCredentials()).containsExactly("github", "npm");
        assertThat(Resolver.resolve(null, null, List.of(Policy.named("p"))).boundCredentials()).isEmpty();
    }

    @Test
    void enforcementCarriesTheCoresProgramAndItsTrail() {
        Policy p = new Policy("p", null, null, null, List.of(Policies.allow("api.example.com")),
                List.of(new CredentialBinding("github", "GH_TOKEN")), null, null, null, null, null);
        Enforcement e = Enforcement.of(Resolver.resolve(null, null, List.of(p)), CompileOptions.defaults());
        assertThat(e.boundCredentials()).containsExactly("github");
        Decision d = e.program().decideConnection(
                EgressRequest.connection("https", "api.example.com", 443, "api.example.com", null));
        assertThat(d.allowed()).isTrue();
        assertThat(d.policy()).isEqualTo("p");
        assertThat(d.entryIndex()).isZero();
    }

    @Test
    void denyAllNamesItsReasonAndBindsNothing() {
        Enforcement e = Enforcement.denyAll(ReasonCode.HALTED, "the organization is halted");
        Decision d = e.program().decide(EgressRequest.connection("https", "a.test", 443, "a.test", null));
        assertThat(d.allowed()).isFalse();
        assertThat(d.reason()).isEqualTo(ReasonCode.HALTED);
        assertThat(e.boundCredentials()).isEmpty();
        assertThat(Enforcement.of(null, null).program().decide(
                EgressRequest.connection("https", "a.test", 443, "a.test", null)).reason())
                .isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
    }

    @Test
    void projectsGrantsAreUnitedPerConnectorInFirstGrantedOrder() {
        List<GrantedConnector> out = ConnectorReach.across(List.of(
                new ProjectGrants(ORG, P1, List.of(new ConnectorGrant(GH, List.of("list_issues", "get_issue"), null))),
                new ProjectGrants(ORG, P2, List.of(new ConnectorGrant(GH, List.of("create_issue", "list_issues"), null),
                        new ConnectorGrant(JIRA, List.of(), null)))), Set.of());
        assertThat(out).containsExactly(
                new GrantedConnector(ORG, UUID.fromString(GH), List.of("list_issues", "get_issue", "create_issue"),
                        Optional.empty()),
                new GrantedConnector(ORG, UUID.fromString(JIRA), List.of(), Optional.empty()));
    }

    @Test
    void theFirstProjectNamingACredentialChoosesIt() {
        List<GrantedConnector> out = ConnectorReach.across(List.of(
                new ProjectGrants(ORG, P1, List.of(new ConnectorGrant(GH, List.of("a"), null))),
                new ProjectGrants(ORG, P2, List.of(new ConnectorGrant(GH, List.of("b"), CRED_A))),
                new ProjectGrants(ORG, P1, List.of(new ConnectorGrant(GH, List.of("c"), CRED_B)))), Set.of());
        assertThat(out).singleElement().satisfies(g -> {
            assertThat(g.tools()).containsExactly("a", "b", "c");
            assertThat(g.credentialId()).contains(UUID.fromString(CRED_A));
        });
    }

    @Test
    void aHaltedOrganizationGrantsNothingAndOthersStillDo() {
        List<GrantedConnector> out = ConnectorReach.across(List.of(
                new ProjectGrants(ORG, P1, List.of(new ConnectorGrant(GH, List.of("a"), null))),
                new ProjectGrants(OTHER_ORG, P2, List.of(new ConnectorGrant(JIRA, List.of("b"), null)))), Set.of(ORG));
        assertThat(out).extracting(GrantedConnector::orgId).containsExactly(OTHER_ORG);
    }

    @Test
    void aGrantWhoseIdsAreNotUuidsGrantsNothing() {
        List<GrantedConnector> out = ConnectorReach.across(List.of(new ProjectGrants(ORG, P1, List.of(
                new ConnectorGrant("github-mcp", List.of("a"), null),
                new ConnectorGrant(GH, List.of("a"), "gh-token"),
                new ConnectorGrant(JIRA, null, null)))), Set.of());
        assertThat(out).containsExactly(new GrantedConnector(ORG, UUID.fromString(JIRA), List.of(), Optional.empty()));
    }
}
