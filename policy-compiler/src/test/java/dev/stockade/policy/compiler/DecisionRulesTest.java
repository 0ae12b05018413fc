package dev.stockade.policy.compiler;

import static dev.stockade.policy.compiler.Policies.allow;
import static dev.stockade.policy.compiler.Policies.callers;
import static dev.stockade.policy.compiler.Policies.connection;
import static dev.stockade.policy.compiler.Policies.deny;
import static dev.stockade.policy.compiler.Policies.direct;
import static dev.stockade.policy.compiler.Policies.get;
import static dev.stockade.policy.compiler.Policies.policy;
import static dev.stockade.policy.compiler.Policies.request;
import static dev.stockade.policy.compiler.Policies.rules;
import static dev.stockade.policy.compiler.Policies.scheme;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.CredentialBinding;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One test per decision and composition rule of spec "Domain entry" and "Scope, resolution and ceiling". */
class DecisionRulesTest {
    private static final String GIT = "/usr/bin/git";
    private static final String CURL = "/usr/bin/curl";

    private static DecisionProgram program(List<Policy> ceiling, Policy... grants) {
        return PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), ceiling, List.of(grants)),
                CompileOptions.defaults());
    }

    private static DecisionProgram program(Policy... grants) {
        return program(List.of(), grants);
    }

    @Test
    void firstMatchingEntryWinsAndUnmatchedHostsTakeTheDefault() {
        DecisionProgram p = program(policy("basics", deny("blocked.example.com"), allow("*.example.com"),
                direct("files.example.org")));
        assertThat(p.decide(get("https://blocked.example.com/")).reason()).isEqualTo(ReasonCode.ENTRY_DENY);
        Decision wild = p.decide(get("https://api.example.com/v1/items"));
        assertThat(wild.allowed()).isTrue();
        assertThat(wild.transport()).isEqualTo(Transport.UPSTREAM);
        assertThat(wild.entryIndex()).isEqualTo(1);
        assertThat(p.decide(get("https://files.example.org/a.tar.gz")).transport()).isEqualTo(Transport.DIRECT);
        assertThat(p.decide(get("https://example.com/")).reason()).isEqualTo(ReasonCode.DEFAULT_DENY);
        assertThat(p.decide(get("https://elsewhere.net/")).reason()).isEqualTo(ReasonCode.DEFAULT_DENY);
    }

    @Test
    void hostsAreComparedCaseInsensitivelyWithoutTrailingDotAndThroughIdna() {
        DecisionProgram p = program(policy("p", allow("api.example.com"), allow("xn--bcher-kva.example")));
        assertThat(p.decide(get("https://API.Example.COM/")).allowed()).isTrue();
        assertThat(p.decideConnection(connection("api.example.com.", null)).allowed()).isTrue();
        assertThat(p.decideConnection(connection("bücher.example", null)).allowed()).isTrue();
    }

    @Test
    void badHostsAreDeniedAsInvalid() {
        DecisionProgram p = program(policy("p", Verdict.ALLOW, allow("a.com")));
        for (String host : new String[] {"", "a..com", ".a.com", "a com", "a.com/x", "a:b", null}) {
            assertThat(p.decideConnection(connection(host, null)).reason()).as(host).isEqualTo(ReasonCode.INVALID_REQUEST);
        }
        assertThat(p.decide(null).reason()).isEqualTo(ReasonCode.INVALID_REQUEST);
    }

    @Test
    void ipLiteralsMatchOnlyExactEntries() {
        // Wildcards never match an IP literal: an IPv6 literal no entry names reaches the default only.
        DecisionProgram p = program(policy("p", allow("*"), allow("10.0.0.1")));
        assertThat(p.decideConnection(connection("10.0.0.1", null)).entryIndex()).isEqualTo(1);
        assertThat(p.decideConnection(connection("10.0.0.2", null)).reason()).isEqualTo(ReasonCode.DEFAULT_DENY);
        assertThat(p.decideConnection(connection("[::1]", null)).reason()).isEqualTo(ReasonCode.DEFAULT_DENY);
        assertThat(p.decideConnection(connection("any.host", null)).entryIndex()).isEqualTo(0);
    }

    @Test
    void callerFenceScopesTheWholeEntryAndDoesNotFallThrough() {
        DecisionProgram p = program(policy("p", callers("github.com", GIT), allow("*.com")));
        assertThat(p.decideConnection(connection("github.com", GIT)).allowed()).isTrue();
        Decision curl = p.decideConnection(connection("github.com", CURL));
        assertThat(curl.reason()).isEqualTo(ReasonCode.CALLER_NOT_LISTED);
        assertThat(curl.entryIndex()).isZero();
        assertThat(p.decideConnection(connection("github.com", null)).reason())
                .isEqualTo(ReasonCode.CALLER_NOT_LISTED);
    }

    @Test
    void callerFencesIntersectAcrossPolicies() {
        Policy a = policy("a", callers("github.com", GIT, CURL));
        Policy b = policy("b", callers("github.com", GIT));
        Policy none = policy("c", callers("github.com", "/usr/bin/wget"));
        Policy unfenced = policy("d", allow("github.com"));
        assertThat(program(a, b).decideConnection(connection("github.com", GIT)).allowed()).isTrue();
        assertThat(program(a, b).decideConnection(connection("github.com", CURL)).allowed()).isFalse();
        assertThat(program(b, none).decideConnection(connection("github.com", GIT)).allowed()).isFalse();
        assertThat(program(b, unfenced).decideConnection(connection("github.com", CURL)).allowed()).isFalse();
    }

    @Test
    void distinctDomainsOfDifferentPoliciesAreAllGranted() {
        DecisionProgram p = program(policy("a", allow("a.com")), policy("b", allow("b.com")));
        assertThat(p.decide(get("https://a.com/")).allowed()).isTrue();
        assertThat(p.decide(get("https://b.com/")).allowed()).isTrue();
    }

    @Test
    void aDenyAnywhereDenies() {
        DecisionProgram p = program(policy("a", allow("*.example.com")), policy("b", deny("secret.example.com")));
        assertThat(p.decide(get("https://secret.example.com/")).reason()).isEqualTo(ReasonCode.ENTRY_DENY);
        assertThat(p.decide(get("https://secret.example.com/")).policy()).isEqualTo("b");
        assertThat(p.decide(get("https://open.example.com/")).allowed()).isTrue();
    }

    @Test
    void methodAndPathRulesIntersectAcrossPolicies() {
        Policy a = policy("a", rules("api.x.com", Rule.of("GET", "/repos/**"), Rule.of("POST", "/repos/**")));
        Policy b = policy("b", rules("api.x.com", Rule.of("GET", null)));
        DecisionProgram p = program(a, b);
        Decision ok = p.decide(get("https://api.x.com/repos/acme/app"));
        assertThat(ok.reason()).isEqualTo(ReasonCode.RULE_ALLOW);
        assertThat(ok.policy()).isEqualTo("a");
        assertThat(ok.ruleIndex()).isZero();
        Decision post = p.decide(request("POST", "https://api.x.com/repos/acme/app", null));
        assertThat(post.reason()).isEqualTo(ReasonCode.NO_RULE_MATCHED);
        assertThat(post.policy()).isEqualTo("b");
        assertThat(p.decide(get("https://api.x.com/users")).reason()).isEqualTo(ReasonCode.NO_RULE_MATCHED);
    }

    @Test
    void rulesNeedEveryConditionPresentAndPathsExcludeTheQuery() {
        DecisionProgram p = program(policy("p", rules("x.com", Rule.of("GET", "/a/*"))));
        assertThat(p.decide(get("https://x.com/a/b?q=1")).allowed()).isTrue();
        assertThat(p.decide(request("POST", "https://x.com/a/b", null)).allowed()).isFalse();
        assertThat(p.decide(get("https://x.com/a/b/c")).allowed()).isFalse();
    }

    @Test
    void dotSegmentsAndEncodedSeparatorsNeverMatchAPathGlob() {
        DecisionProgram p = program(policy("p", rules("x.com", Rule.of(null, "/public/**"), Rule.of("HEAD", null))));
        assertThat(p.decide(get("https://x.com/public/a")).allowed()).isTrue();
        assertThat(p.decide(get("https://x.com/public/../admin")).allowed()).isFalse();
        assertThat(p.decide(get("https://x.com/public/%2e%2e/admin")).allowed()).isFalse();
        assertThat(p.decide(get("https://x.com/public/a%2Fb")).allowed()).isFalse();
        assertThat(p.decide(request("HEAD", "https://x.com/public/../admin", null)).allowed()).isTrue();
    }

    @Test
    void connectionAllowOfAnUpstreamEntryWithRulesMeansIntercept() {
        DecisionProgram p = program(policy("p", rules("x.com", Rule.of("GET", "/a")), direct("d.com")));
        Decision c = p.decideConnection(connection("x.com", null));
        assertThat(c.allowed()).isTrue();
        assertThat(c.intercept()).isTrue();
        Decision d = p.decideConnection(connection("d.com", null));
        assertThat(d.transport()).isEqualTo(Transport.DIRECT);
        assertThat(d.intercept()).isFalse();
    }

    @Test
    void aDirectEntryWithRulesIsInterceptedSoItsRulesHold() {
        DomainEntry e = new DomainEntry("x.com", Verdict.ALLOW, Transport.DIRECT, null, null,
                List.of(Rule.of("GET", "/ok")), null);
        DecisionProgram p = program(policy("p", e));
        Decision c = p.decideConnection(connection("x.com", null));
        assertThat(c.transport()).isEqualTo(Transport.UPSTREAM);
        assertThat(c.intercept()).isTrue();
        assertThat(p.decide(get("https://x.com/nope")).allowed()).isFalse();
    }

    @Test
    void aSchemeFencesTheEntryWithoutFallingThrough() {
        DecisionProgram p = program(policy("p", scheme("x.com", "https"), allow("*.com")));
        assertThat(p.decide(get("https://x.com/")).allowed()).isTrue();
        Decision plain = p.decide(get("http://x.com/"));
        assertThat(plain.reason()).isEqualTo(ReasonCode.SCHEME_MISMATCH);
        assertThat(p.decideConnection(EgressRequest.connection(null, "x.com", 443, null, null)).allowed()).isTrue();
        assertThat(p.decideConnection(EgressRequest.connection(null, "x.com", 8080, null, null)).allowed()).isFalse();
    }

    @Test
    void aDenyEntryIgnoresTransportSchemeAndRules() {
        DomainEntry e = new DomainEntry("x.com", Verdict.DENY, Transport.DIRECT, "https", null,
                List.of(Rule.of("GET", "/only")), null);
        DecisionProgram p = program(policy("p", Verdict.ALLOW, e));
        assertThat(p.decide(get("http://x.com/other")).reason()).isEqualTo(ReasonCode.ENTRY_DENY);
    }

    private static EgressRequest graphql(String query, Map<String, List<String>> headers) {
        String body = "{\"query\": \"" + query.replace("\"", "\\\"") + "\"}";
        Map<String, List<String>> h = new java.util.HashMap<>(headers);
        h.put("content-type", List.of("application/json"));
        return new EgressRequest("https", "api.github.com", 443, null, null, "POST", "/graphql", null, h,
                body.getBytes(java.nio.charset.StandardCharsets.UTF_8), false);
    }

    @Test
    void graphqlRuleSixPlainRulesCannotBypassAGraphqlRule() {
        Rule query = new Rule("POST", "/graphql", new GraphqlFence(OperationType.QUERY, null, null, null));
        DecisionProgram p = program(policy("p", rules("api.github.com", query, Rule.of("POST", "/**"))));
        Decision ok = p.decide(graphql("query { viewer { login } }", Map.of()));
        assertThat(ok.reason()).isEqualTo(ReasonCode.RULE_ALLOW);
        assertThat(ok.ruleIndex()).isZero();
        Decision mutation = p.decide(graphql("mutation { deleteRepository(id: 1) { id } }", Map.of()));
        assertThat(mutation.allowed()).isFalse();
        assertThat(mutation.reason()).isEqualTo(ReasonCode.GRAPHQL_OPERATION_DENIED);
        assertThat(mutation.ruleIndex()).isZero();
        assertThat(p.decide(request("POST", "https://api.github.com/graphql", null)).allowed()).isFalse();
        assertThat(p.decide(request("POST", "https://api.github.com/repos", null)).allowed()).isTrue();
    }

    private static EgressRequest upgrade(String url) {
        EgressRequest get = get(url);
        return new EgressRequest(get.scheme(), get.host(), get.port(), null, null, "GET", get.path(), null,
                WEBSOCKET, null, false);
    }

    /** The headers of an RFC 6455 opening handshake, the core's one definition of an upgrade. */
    private static final Map<String, List<String>> WEBSOCKET = Map.of("upgrade", List.of("websocket"),
            "connection", List.of("Upgrade"), "sec-websocket-version", List.of("13"),
            "sec-websocket-key", List.of("dGhlIHNhbXBsZSBub25jZQ=="));

    private static final String TWS = "graphql-transport-ws";

    @Test
    void graphqlWebsocketFramesAreJudgedByTheRulesOfTheUpgradePath() {
        Rule subscriptions = new Rule("GET", "/graphql",
                new GraphqlFence(OperationType.SUBSCRIPTION, null, List.of("issueUpdated"), null));
        DecisionProgram p = program(policy("p", rules("api.x.com", subscriptions, Rule.of("GET", "/plain"))));
        EgressRequest ws = upgrade("https://api.x.com/graphql");
        assertThat(p.decide(ws).allowed()).isTrue();
        assertThat(p.graphqlFenced(ws)).isTrue();

        assertThat(p.decideFrame(ws, TWS, "{\"type\":\"connection_init\"}").allowed()).isTrue();
        assertThat(p.decideFrame(ws, TWS, "{\"type\":\"ping\"}").allowed()).isTrue();
        Decision ok = p.decideFrame(ws, TWS,
                "{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"query\":\"subscription { issueUpdated { id } }\"}}");
        assertThat(ok.allowed()).isTrue();
        assertThat(ok.reason()).isEqualTo(ReasonCode.RULE_ALLOW);
        assertThat(ok.ruleIndex()).isZero();

        Decision outside = p.decideFrame(ws, TWS,
                "{\"type\":\"subscribe\",\"id\":\"2\",\"payload\":{\"query\":\"subscription { repoDeleted { id } }\"}}");
        assertThat(outside.allowed()).isFalse();
        assertThat(outside.reason()).isEqualTo(ReasonCode.GRAPHQL_FIELD_DENIED);
        assertThat(outside.policy()).isEqualTo("p");
        assertThat(outside.ruleIndex()).isZero();
        assertThat(p.decideFrame(ws, TWS, "not json").reason()).isEqualTo(ReasonCode.GRAPHQL_UNPARSEABLE);
        assertThat(p.decideFrame(ws, "chat", "{\"type\":\"ping\"}").reason())
                .isEqualTo(ReasonCode.GRAPHQL_WEBSOCKET_DENIED);
        assertThat(p.decideFrame(ws, null, null).allowed()).isFalse();
    }

    @Test
    void theFirstAdmittingGraphqlRuleDecidesAFrameAndPlainPathsAreNotPoliced() {
        Rule issues = new Rule("GET", "/graphql",
                new GraphqlFence(OperationType.SUBSCRIPTION, null, List.of("issueUpdated"), null));
        Rule anything = new Rule("GET", "/graphql", new GraphqlFence(OperationType.ANY, null, null, null));
        DecisionProgram p = program(policy("p", rules("api.x.com", issues, anything, Rule.of("GET", "/feed"))));
        EgressRequest ws = upgrade("https://api.x.com/graphql");
        Decision second = p.decideFrame(ws, "graphql-ws",
                "{\"type\":\"start\",\"id\":\"1\",\"payload\":{\"query\":\"subscription { repoDeleted { id } }\"}}");
        assertThat(second.allowed()).isTrue();
        assertThat(second.ruleIndex()).isEqualTo(1);

        EgressRequest feed = upgrade("https://api.x.com/feed");
        assertThat(p.graphqlFenced(feed)).isFalse();
        assertThat(p.decideFrame(feed, null, "anything at all").allowed()).isTrue();
        assertThat(p.decideFrame(upgrade("https://api.x.com/other"), TWS, "{\"type\":\"ping\"}").reason())
                .as("the upgrade itself is judged again").isEqualTo(ReasonCode.NO_RULE_MATCHED);
        assertThat(p.graphqlFenced(EgressRequest.connection("https", "api.x.com", 443, null, null))).isFalse();
        assertThat(p.decideFrame(null, TWS, "{}").allowed()).isFalse();
    }

    @Test
    void everyComponentFencingTheUpgradeMustAdmitTheFrame() {
        Rule orgRule = new Rule("GET", "/graphql",
                new GraphqlFence(OperationType.SUBSCRIPTION, null, List.of("issueUpdated"), null));
        Rule projRule = new Rule("GET", "/graphql", new GraphqlFence(OperationType.ANY, null, null, null));
        DecisionProgram p = program(List.of(policy("org", rules("api.x.com", orgRule))),
                policy("proj", rules("api.x.com", projRule)));
        EgressRequest ws = upgrade("https://api.x.com/graphql");
        Decision clipped = p.decideFrame(ws, TWS,
                "{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"query\":\"subscription { repoDeleted { id } }\"}}");
        assertThat(clipped.reason()).isEqualTo(ReasonCode.GRAPHQL_FIELD_DENIED);
        assertThat(clipped.policy()).isEqualTo("org");
        assertThat(p.decideFrame(ws, TWS,
                "{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"query\":\"subscription { issueUpdated { id } }\"}}")
                .allowed()).isTrue();
    }

    @Test
    void graphqlFencesOfSeveralPoliciesAreConjoined() {
        Rule any = new Rule("POST", "/graphql", new GraphqlFence(OperationType.ANY, null, List.of("viewer", "repository"),
                null));
        Rule viewerOnly = new Rule("POST", "/graphql", new GraphqlFence(OperationType.QUERY, null, List.of("viewer"),
                null));
        DecisionProgram p = program(policy("a", rules("api.github.com", any)), policy("b", rules("api.github.com",
                viewerOnly)));
        assertThat(p.decide(graphql("query { viewer { login } }", Map.of())).allowed()).isTrue();
        Decision repo = p.decide(graphql("query { repository(owner: \"a\", name: \"b\") { id } }", Map.of()));
        assertThat(repo.reason()).isEqualTo(ReasonCode.GRAPHQL_FIELD_DENIED);
        assertThat(repo.policy()).isEqualTo("b");
    }

    @Test
    void websocketUpgradesFollowTheGraphqlRule() {
        Map<String, List<String>> upgrade = WEBSOCKET;
        Rule query = new Rule(null, "/graphql", new GraphqlFence(OperationType.QUERY, null, null, null));
        Rule subscription = new Rule(null, "/graphql", new GraphqlFence(OperationType.SUBSCRIPTION, null, null, null));
        EgressRequest ws = new EgressRequest("https", "api.github.com", 443, null, null, "GET", "/graphql", null,
                upgrade, null, false);
        assertThat(program(policy("p", rules("api.github.com", query, Rule.of("GET", "/**")))).decide(ws).reason())
                .isEqualTo(ReasonCode.GRAPHQL_WEBSOCKET_DENIED);
        assertThat(program(policy("p", rules("api.github.com", subscription))).decide(ws).allowed()).isTrue();
    }

    @Test
    void theCeilingClipsAndAddsItsFencesButGrantsNothing() {
        List<Policy> ceiling = List.of(policy("org", deny("gist.github.com"), callers("*.github.com", GIT)));
        DecisionProgram p = program(ceiling, policy("proj", allow("api.github.com"), allow("gist.github.com"),
                allow("example.com")));
        assertThat(p.decideConnection(connection("api.github.com", GIT)).allowed()).isTrue();
        Decision curl = p.decideConnection(connection("api.github.com", CURL));
        assertThat(curl.reason()).isEqualTo(ReasonCode.CALLER_NOT_LISTED);
        assertThat(curl.policy()).isEqualTo("org");
        assertThat(p.decideConnection(connection("gist.github.com", GIT)).reason())
                .isEqualTo(ReasonCode.CEILING_CLIPPED);
        assertThat(p.decideConnection(connection("example.com", GIT)).reason()).isEqualTo(ReasonCode.CEILING_CLIPPED);
        assertThat(program(ceiling).decideConnection(connection("api.github.com", GIT)).allowed()).isFalse();
    }

    @Test
    void theCeilingIntersectsHttpRules() {
        List<Policy> ceiling = List.of(policy("org", rules("api.x.com", Rule.of("GET", null))));
        DecisionProgram p = program(ceiling, policy("proj", allow("api.x.com")));
        assertThat(p.decide(get("https://api.x.com/a")).allowed()).isTrue();
        Decision post = p.decide(request("POST", "https://api.x.com/a", null));
        assertThat(post.reason()).isEqualTo(ReasonCode.NO_RULE_MATCHED);
        assertThat(post.policy()).isEqualTo("org");
    }

    @Test
    void attachingACredentialNeverAllowsADomain() {
        Policy p = new Policy("p", null, null, null, List.of(), List.of(new CredentialBinding("github", "GH_TOKEN")),
                null, null, null, null, null);
        assertThat(program(p).decideConnection(connection("api.github.com", null)).allowed()).isFalse();
    }

    @Test
    void noPolicyReachesNothingAndDenyAllDeniesEverything() {
        assertThat(program().decideConnection(connection("a.com", null)).reason()).isEqualTo(ReasonCode.DEFAULT_DENY);
        DecisionProgram halted = DecisionProgram.denyAll(ReasonCode.HALTED, "the organization is halted");
        assertThat(halted.decide(get("https://a.com/")).reason()).isEqualTo(ReasonCode.HALTED);
    }

    @Test
    void aBrokenEffectivePolicyCompilesToDenyAll() {
        assertThat(PolicyCompiler.compile((Resolution) null, null).decide(get("https://a.com/")).reason())
                .isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
    }

    @Test
    void decisionsCarryStableReasonsAndOneLineDetails() {
        Decision d = program(policy("p", callers("a.com", GIT))).decide(
                new EgressRequest("https", "a.com", 443, null, CURL, "GET", "/", null, Map.of(), null, false));
        assertThat(d.reason().code()).isEqualTo("caller-not-listed");
        assertThat(d.detail()).doesNotContain("\n").isEqualTo(d.detail().toLowerCase());
    }
}
