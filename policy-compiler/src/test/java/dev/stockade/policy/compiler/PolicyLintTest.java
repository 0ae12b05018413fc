package dev.stockade.policy.compiler;

import static dev.stockade.policy.compiler.Policies.allow;
import static dev.stockade.policy.compiler.Policies.callers;
import static dev.stockade.policy.compiler.Policies.deny;
import static dev.stockade.policy.compiler.Policies.policy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.CredentialBinding;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Severity;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyLintTest {

    @Test
    void anEntryCoveredByAnEarlierOneIsUnreachable() {
        Policy p = policy("p", callers("*.example.com", "/usr/bin/git"), allow("api.example.com"),
                deny("*.a.example.com"), allow("example.com"), allow("x.org"), allow("X.ORG"));
        List<Problem> problems = PolicyLint.analyse(p);
        assertThat(problems).extracting(Problem::pointer).containsExactly("/allowedDomains/1/pattern",
                "/allowedDomains/2/pattern", "/allowedDomains/5/pattern");
        assertThat(problems).allMatch(pr -> pr.severity() == Severity.WARNING && pr.code().equals("entry-unreachable"));
    }

    @Test
    void rulesOnADirectEntryAndWildcardFieldsWithArguments() {
        GraphqlFence g = new GraphqlFence(OperationType.QUERY, null, List.of("*"),
                List.of(new ArgumentCondition("repository", "/owner", "acme")));
        DomainEntry e = new DomainEntry("api.github.com", Verdict.ALLOW, Transport.DIRECT, null, null,
                List.of(Rule.of("GET", "/a"), new Rule(null, "/graphql", g)), null);
        assertThat(PolicyLint.analyse(policy("p", e))).extracting(Problem::code, Problem::pointer).containsExactly(
                org.assertj.core.groups.Tuple.tuple("rules-on-direct", "/allowedDomains/0/transport"),
                org.assertj.core.groups.Tuple.tuple("fields-wildcard-with-arguments",
                        "/allowedDomains/0/rules/1/graphql/fields"));
    }

    @Test
    void aCredentialWhoseKnownDomainIsNotAllowed() {
        Policy p = new Policy("p", null, null, null, List.of(DomainEntry.allow("api.github.com")),
                List.of(new CredentialBinding("github", "GH"), new CredentialBinding("slack", "SLACK"),
                        new CredentialBinding("unknown", "U")),
                null, null, null, null, null);
        List<Problem> problems = PolicyLint.analyse(p, Map.of("github", "api.github.com", "slack", "slack.com"));
        assertThat(problems).extracting(Problem::code, Problem::pointer).containsExactly(
                org.assertj.core.groups.Tuple.tuple("credential-domain-not-allowed", "/credentials/1"));
        assertThat(PolicyLint.analyse(p)).isEmpty();
    }

    @Test
    void aGraphqlRuleThatAPlainRuleShadowsOnCaseOrTrailingSlashVariants() {
        GraphqlFence g = new GraphqlFence(OperationType.QUERY, null, List.of("viewer"), null);
        DomainEntry broad = new DomainEntry("api.github.com", Verdict.ALLOW, Transport.UPSTREAM, null, null,
                List.of(new Rule("POST", "/graphql", g), Rule.of("POST", "/**")), null);
        assertThat(PolicyLint.analyse(policy("p", broad))).extracting(Problem::code, Problem::pointer)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("graphql-rule-shadowed", "/allowedDomains/0/rules/0"));
        DomainEntry methodOnly = new DomainEntry("api.github.com", Verdict.ALLOW, Transport.UPSTREAM, null, null,
                List.of(new Rule("POST", "/graphql", g), new Rule("POST", null, null)), null);
        assertThat(PolicyLint.analyse(policy("p", methodOnly))).extracting(Problem::code)
                .containsExactly("graphql-rule-shadowed");
        DomainEntry narrow = new DomainEntry("api.github.com", Verdict.ALLOW, Transport.UPSTREAM, null, null,
                List.of(new Rule("POST", "/graphql", g), Rule.of("POST", "/repos/**"), Rule.of("GET", "/**")), null);
        assertThat(PolicyLint.analyse(policy("p", narrow))).isEmpty();
    }

    @Test
    void aPortThatContradictsTheSchemeAndPortsInTheUnreachableCheck() {
        Policy p = policy("p", Policies.scheme("a.example.com:443", "http"), Policies.scheme("b.example.com:80", "wss"),
                Policies.scheme("c.example.com:8443", "https"), Policies.scheme("d.example.com:443", "https"),
                allow("e.example.com"), allow("e.example.com:8443"), allow("f.example.com:8443"),
                allow("f.example.com"), allow("f.example.com:9000"));
        assertThat(PolicyLint.analyse(p)).extracting(Problem::code, Problem::pointer).containsExactly(
                org.assertj.core.groups.Tuple.tuple("port-contradicts-scheme", "/allowedDomains/0/pattern"),
                org.assertj.core.groups.Tuple.tuple("port-contradicts-scheme", "/allowedDomains/1/pattern"),
                org.assertj.core.groups.Tuple.tuple("entry-unreachable", "/allowedDomains/5/pattern"),
                org.assertj.core.groups.Tuple.tuple("entry-unreachable", "/allowedDomains/8/pattern"));
    }
}
