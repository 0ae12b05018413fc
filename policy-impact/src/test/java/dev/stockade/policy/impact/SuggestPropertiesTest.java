package dev.stockade.policy.impact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyLint;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.graphql.GraphqlDocumentCache;
import dev.stockade.policy.graphql.GraphqlExchange;
import dev.stockade.policy.graphql.GraphqlLimits;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.graphql.GraphqlSummaryReader;
import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.PolicyWriter;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Verdict;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Properties of {@code policy suggest} over random windows (QuickTheories, fixed seed): traffic recorded under a random
 * policy the way the proxy records it, then suggested from. Replaying the window under the suggestion denies nothing
 * recorded as allowed; the suggestion is a valid policy that lint has nothing to say about; and no wildcard it makes
 * covers a public suffix.
 */
class SuggestPropertiesTest {
    private static final long SEED = 0x5C6E57L;
    private static final String CONNECTOR = "0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10";
    /** Hosts in families that invite wildcards, under ICANN and private public suffixes, and addresses. */
    private static final List<String> HOSTS = List.of("x.com", "a.x.com", "b.x.com", "c.x.com", "d.eu.x.com",
            "e.eu.x.com", "f.eu.x.com", "eu.x.com", "one.com", "two.com", "three.com", "p.github.io", "q.github.io",
            "r.github.io", "a.shop.co.uk", "b.shop.co.uk", "c.shop.co.uk", "m.co.uk", "n.co.uk", "o.co.uk",
            "API.Example.ORG", "10.0.0.1", "2001:db8::1", "bücher.example");
    /** Public suffixes of the hosts above: a wildcard over any of them would be the bug. */
    private static final Set<String> SUFFIXES = Set.of("com", "github.io", "co.uk", "uk", "org", "example", "io");
    private static final List<String> PATHS = List.of("/a/x", "/a/y", "/a/z", "/a/w/q", "/a", "/b", "/", "/c/d;p",
            "/a/../b", "/v1/items/1", "/v1/items/2", "/v1/items/3", "/v1/items/4", "/v1/items/5", "/v1/items",
            "/x*y", "/%2e%2e/z", "/graphql", "/graphql", "/graphql", "/graphql");
    /** GraphQL documents a request may carry (none: a body no fence reads), batches and introspection included. */
    private static final List<String> DOCUMENTS = Arrays.asList(null, "{ viewer { login } }",
            "query Q { r: repository(owner: \"acme\") { id } viewer { id } }",
            "mutation { createIssue(input: {title: \"t\"}) { id } }", "mutation M { deleteRepository { id } }",
            "{ __schema { types { name } } }", "query { __typename }", "subscription S { issueUpdated { id } }",
            "query A { viewer } mutation B { createIssue { id } }", "[batch]");
    private static final GraphqlSummaryReader READER = GraphqlSummaryReader.of(GraphqlLimits.defaults(),
            GraphqlDocumentCache.bounded(1 << 20));
    /** The denies a fence gives after reading the operations: the proxy records the summary on those (and allows). */
    private static final Set<ReasonCode> JUDGED_DENIES = EnumSet.of(ReasonCode.GRAPHQL_OPERATION_DENIED,
            ReasonCode.GRAPHQL_NAME_DENIED, ReasonCode.GRAPHQL_FIELD_DENIED, ReasonCode.GRAPHQL_ARGUMENT_DENIED);
    private static final List<String> PATTERNS = List.of("*", "*.x.com", "x.com", "*.github.io", "*.co.uk:443",
            "10.0.0.1", "a.x.com:8080");
    private static final List<String> TOOLS = List.of("search", "create", "delete");

    record Traffic(EgressListener listener, String host, int port, String method, String path, String caller,
            String document) {
    }

    record Window(Policy inForce, List<Traffic> traffic, List<String> tools) {
    }

    private static Gen<Policy> policies() {
        Gen<DomainEntry> entry = arbitrary().pick(PATTERNS).zip(integers().between(0, 5), (p, shape) -> switch (shape) {
            case 0 -> DomainEntry.deny(p);
            case 4 -> DomainEntry.allow(p).withRules(List.of(
                    new Rule("POST", "/graphql", new GraphqlFence(OperationType.QUERY, null, List.of("viewer",
                            "repository"), List.of(new ArgumentCondition("repository", "/owner", "acme")))),
                    new Rule("POST", "/graphql", new GraphqlFence(OperationType.MUTATION, null,
                            List.of("createIssue"), null)),
                    new Rule("GET", "/graphql", new GraphqlFence(OperationType.ANY, null, null, null)),
                    Rule.of("GET", "/a/**")));
            case 1 -> DomainEntry.allow(p).withBinaries(List.of("/usr/bin/git", "/usr/bin/curl"));
            case 2 -> DomainEntry.allow(p).withRules(List.of(Rule.of("GET", "/a/**"), Rule.of("POST", "/v1/**"),
                    Rule.of(null, "/b")));
            default -> DomainEntry.allow(p);
        });
        return lists().of(entry).ofSizeBetween(1, 4).zip(arbitrary().pick(Verdict.ALLOW, Verdict.DENY),
                lists().of(arbitrary().pick(TOOLS)).ofSizeBetween(0, 3), (entries, dv, tools) -> new Policy("in-force",
                        null, dv, null, entries, null, List.of(new ConnectorGrant(CONNECTOR,
                        tools.stream().distinct().toList(), null)), null, null, null, null));
    }

    private static Gen<Traffic> traffic() {
        Gen<String> method = arbitrary().pick("GET", "POST", "DELETE", "get");
        Gen<String> caller = arbitrary().pick("/usr/bin/git", "/usr/bin/curl", "/opt/x y", "bin/git",
                " /usr/bin/sh", "/usr/bin/[", null);
        return arbitrary().enumValues(EgressListener.class).zip(arbitrary().pick(HOSTS),
                arbitrary().pick(443, 80, 8080), method, arbitrary().pick(PATHS),
                (l, h, p, m, pa) -> new Traffic(l, h, p, m, pa, null, null))
                .zip(caller, arbitrary().pick(DOCUMENTS), (t, c, doc) -> new Traffic(t.listener(), t.host(), t.port(),
                        t.method(), t.path(), c, doc));
    }

    private static Gen<Window> windows() {
        return policies().zip(lists().of(traffic()).ofSizeBetween(1, 60),
                lists().of(arbitrary().pick(TOOLS)).ofSizeBetween(0, 4), Window::new);
    }

    private static Candidate candidate(Policy policy) {
        return Candidate.of(Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(policy)));
    }

    /** The window as the proxy and the platform record it under the policy in force. */
    private static List<RecordedDecision> recorded(Window w) {
        Candidate inForce = candidate(w.inForce());
        DecisionProgram program = inForce.program();
        List<RecordedDecision> trail = new ArrayList<>();
        for (int i = 0; i < w.traffic().size(); i++) {
            Traffic t = w.traffic().get(i);
            EgressListener l = t.listener();
            EgressRequest r = l.requestLevel() ? request(l, t)
                    : EgressRequest.connection(l.scheme(), t.host(), t.port(), l.sniIsHost() ? t.host() : null,
                            t.caller());
            Decision d = l.requestLevel() ? program.decide(r) : program.decideConnection(r);
            trail.add(new RecordedDecision.Egress(Instant.ofEpochSecond(1_800_000_000L + i), "sb", l, t.host(),
                    t.port(), l.requestLevel() ? t.method() : null, l.requestLevel() ? t.path() : null, t.caller(),
                    d.verdict(), d.reason().code(), l.requestLevel() ? judged(program, r, d) : null));
        }
        for (String tool : w.tools()) {
            if (inForce.grantsTool(CONNECTOR, tool)) {
                trail.add(new RecordedDecision.ToolCall(Instant.ofEpochSecond(1_800_000_000L), "sandbox:sb",
                        "acme__" + tool, CONNECTOR, tool, Verdict.ALLOW));
            }
        }
        return trail;
    }

    /** The request with its GraphQL document: URL parameters on GET, a JSON body (or a batch of two) otherwise. */
    private static EgressRequest request(EgressListener l, Traffic t) {
        String doc = t.document();
        if (doc == null) {
            return new EgressRequest(l.scheme(), t.host(), t.port(), null, t.caller(), t.method(), t.path(), null,
                    Map.of(), null, false);
        }
        if ("GET".equals(t.method())) {
            return new EgressRequest(l.scheme(), t.host(), t.port(), null, t.caller(), t.method(), t.path(),
                    "query=" + URLEncoder.encode(doc.equals("[batch]") ? "{ viewer }" : doc, StandardCharsets.UTF_8)
                            + (doc.startsWith("query A") ? "&operationName=A" : ""), Map.of(), null, false);
        }
        String body = doc.equals("[batch]")
                ? "[{\"query\":\"{ viewer }\"},{\"query\":\"mutation { createIssue { id } }\"}]"
                : "{\"query\":\"" + doc.replace("\"", "\\\"") + "\"" + (doc.startsWith("query A") ? ",\"operationName\":\"B\"" : "") + "}";
        return new EgressRequest(l.scheme(), t.host(), t.port(), null, t.caller(), t.method(), t.path(), null,
                Map.of("content-type", List.of("application/json")), body.getBytes(StandardCharsets.UTF_8), false);
    }

    /** The summary the proxy records: on an allow a graphql rule covers, or a fence's deny; else none. */
    private static GraphqlSummary judged(DecisionProgram program, EgressRequest r, Decision d) {
        boolean judged = d.allowed() ? program.graphqlFenced(r) : JUDGED_DENIES.contains(d.reason());
        return judged ? READER.read(GraphqlExchange.of(r.method(), r.header("content-type"), r.query(), r.body(),
                false, false)).orElse(null) : null;
    }

    private static SuggestOptions options(int minSubdomains, int minPaths) {
        return SuggestOptions.defaults().withMinSubdomains(minSubdomains).withMinPaths(minPaths);
    }

    @Test
    void replayingTheWindowUnderItsSuggestionDeniesNothingRecordedAsAllowed() {
        QuickTheory.qt().withFixedSeed(SEED).withExamples(400).forAll(windows(), integers().between(2, 4),
                integers().between(2, 5)).checkAssert((w, subdomains, paths) -> {
                    List<RecordedDecision> trail = recorded(w);
                    Suggestion s = Suggester.suggest(options(subdomains, paths), trail);
                    ImpactReport r = ImpactReplay.replay(CandidateSource.everywhere(candidate(s.policy())),
                            ImpactLimits.defaults(), trail);
                    assertThat(r.newlyDenied()).as("%s%n%s", PolicyWriter.toYaml(s.policy()), r.deniedGroups())
                            .isZero();
                    // beyond what suggest could not use, only a denied request without recorded operations on a
                    // path the suggestion fences (the allowed ones all carried theirs, or it would not fence it)
                    long unrecorded = r.notReplayableBy().stream()
                            .filter(c -> c.reason() == NotReplayable.GRAPHQL_NOT_RECORDED)
                            .mapToLong(ImpactReport.NotReplayableCount::count).sum();
                    assertThat(r.notReplayable()).isEqualTo(s.notUsable() + unrecorded);
                    ImpactReport allowedOnly = ImpactReplay.replay(CandidateSource.everywhere(candidate(s.policy())),
                            ImpactLimits.defaults(), trail.stream().filter(e -> e instanceof RecordedDecision.Egress g
                                    && g.recorded() == Verdict.ALLOW).toList());
                    assertThat(allowedOnly.notReplayableBy()).extracting(ImpactReport.NotReplayableCount::reason)
                            .doesNotContain(NotReplayable.GRAPHQL_NOT_RECORDED,
                                    NotReplayable.GRAPHQL_ARGUMENTS_NOT_RECORDED,
                                    NotReplayable.GRAPHQL_SUMMARY_TRUNCATED);
                });
    }

    @Test
    void theSuggestionIsAValidPolicyLintHasNothingToSayAbout() {
        QuickTheory.qt().withFixedSeed(SEED).withExamples(300).forAll(windows(), integers().between(2, 4))
                .checkAssert((w, n) -> {
                    Policy suggested = Suggester.suggest(options(n, n), recorded(w)).policy();
                    ReadResult read = PolicyReader.read("suggested.yaml", PolicyWriter.toYaml(suggested));
                    assertThat(read.problems()).isEmpty();
                    assertThat(read.policy()).isEqualTo(suggested);
                    assertThat(PolicyLint.analyse(read.policy())).isEmpty();
                });
    }

    @Test
    void noWildcardEverCoversAPublicSuffix() {
        QuickTheory.qt().withFixedSeed(SEED).withExamples(300).forAll(windows(), integers().between(2, 3))
                .checkAssert((w, n) -> {
                    for (DomainEntry e : Suggester.suggest(options(n, 4), recorded(w)).policy().domains()) {
                        String host = e.pattern().substring(0, e.pattern().lastIndexOf(':'));
                        if (host.startsWith("*.")) {
                            assertThat(SUFFIXES).doesNotContain(host.substring(2));
                            assertThat(HostGeneralisation.publicSuffix(host.substring(2))).isFalse();
                        }
                    }
                });
    }

    @Test
    void thePropertiesAreNotVacuous() {
        // guard: the windows do make host wildcards and path prefixes, and the suggestions admit recorded traffic
        long[] seen = new long[4];
        QuickTheory.qt().withFixedSeed(SEED).withExamples(200).forAll(windows()).checkAssert(w -> {
            Suggestion s = Suggester.suggest(options(2, 2), recorded(w));
            seen[0] += s.wildcards().size();
            seen[1] += s.policy().domains().stream().filter(DomainEntry::hasRules)
                    .flatMap(e -> e.rules().stream()).filter(r -> r.path().endsWith("/**")).count();
            seen[2] += s.used();
            seen[3] += s.policy().domains().stream().filter(DomainEntry::hasRules)
                    .flatMap(e -> e.rules().stream()).filter(r -> r.graphql() != null).count();
        });
        assertThat(seen[0]).as("wildcards made").isPositive();
        assertThat(seen[1]).as("path prefixes made").isPositive();
        assertThat(seen[2]).as("entries used").isPositive();
        assertThat(seen[3]).as("graphql rules drawn from recorded operations").isPositive();
    }
}
