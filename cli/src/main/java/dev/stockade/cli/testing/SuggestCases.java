package dev.stockade.cli.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.cli.testing.CaseResult.CaseContext;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.graphql.GraphqlDocumentCache;
import dev.stockade.policy.graphql.GraphqlExchange;
import dev.stockade.policy.graphql.GraphqlLimits;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.graphql.GraphqlSummaryReader;
import dev.stockade.policy.impact.Candidate;
import dev.stockade.policy.impact.CandidateSource;
import dev.stockade.policy.impact.EgressListener;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.ImpactReplay;
import dev.stockade.policy.impact.ImpactReport;
import dev.stockade.policy.impact.RecordedDecision;
import dev.stockade.policy.impact.SuggestOptions;
import dev.stockade.policy.impact.Suggester;
import dev.stockade.policy.impact.Suggestion;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.PolicyWriter;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Verdict;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code suggest} section (an extension of FORMAT.md, docs/policy-tests.md): recorded traffic in, the suggested
 * policy's entries and connector tools out. Every case also checks what {@code policy suggest} promises whatever the
 * traffic: the suggestion is a valid policy and replaying the traffic under it denies nothing recorded as allowed. A
 * request item may carry the GraphQL document it sent ({@code graphql}): the operations a fence judged in it are
 * recorded with it, as the proxy records them.
 */
final class SuggestCases {
    private static final Instant AT = Instant.parse("2026-11-20T10:00:00Z");
    private static final GraphqlSummaryReader READER = GraphqlSummaryReader.of(GraphqlLimits.defaults(),
            GraphqlDocumentCache.bounded(1 << 20));

    private SuggestCases() {
    }

    static CaseResult suggest(CaseContext ctx, JsonNode node, String pointer) {
        SuggestOptions options = SuggestOptions.defaults()
                .withMinSubdomains(threshold(node, "minSubdomains", 3, pointer))
                .withMinPaths(threshold(node, "minPaths", 4, pointer));
        List<RecordedDecision> trail = new ArrayList<>();
        JsonNode traffic = node.path("traffic");
        for (int i = 0; i < traffic.size(); i++) {
            trail.add(egress(traffic.get(i), pointer + "/traffic/" + i, i));
        }
        node.path("tools").forEach(t -> trail.add(new RecordedDecision.ToolCall(AT, "sandbox:sb",
                t.path("tool").asText(), t.path("connectorId").asText(), t.path("tool").asText(), Verdict.ALLOW)));
        Suggestion s = Suggester.suggest(options, trail);
        String yaml = PolicyWriter.toYaml(s.policy());
        ReadResult read = PolicyReader.read("suggested.yaml", yaml);
        if (!read.valid()) {
            return CaseResult.failed(ctx, "a valid suggestion", "invalid: " + Expectations.describe(read.problems()));
        }
        ImpactReport replay = ImpactReplay.replay(CandidateSource.everywhere(Candidate.of(Resolver.resolve(
                InstallFacts.defaults(), List.of(), List.of(read.policy())))), ImpactLimits.defaults(), trail);
        if (replay.newlyDenied() > 0) {
            return CaseResult.failed(ctx, "nothing recorded as allowed newly denied",
                    replay.newlyDenied() + " newly denied: " + replay.deniedGroups());
        }
        return compare(ctx, node.get("expect"), PolicyWriter.toTree(s.policy()));
    }

    private static CaseResult compare(CaseContext ctx, JsonNode expect, ObjectNode actual) {
        List<String> mismatches = new ArrayList<>();
        JsonNode domains = normalised(actual.path("allowedDomains"));
        if (expect.has("patterns")) {
            List<String> got = new ArrayList<>();
            domains.forEach(e -> got.add(e.path("pattern").asText()));
            List<String> want = new ArrayList<>();
            expect.get("patterns").forEach(p -> want.add(p.asText()));
            if (!want.equals(got)) {
                mismatches.add("patterns " + want + " but got " + got);
            }
        }
        if (expect.has("allowedDomains") && !normalised(expect.get("allowedDomains")).equals(domains)) {
            mismatches.add("allowedDomains " + normalised(expect.get("allowedDomains")) + " but got " + domains);
        }
        JsonNode connectors = actual.has("connectors") ? actual.get("connectors") : actual.arrayNode();
        if (expect.has("connectors") && !expect.get("connectors").equals(connectors)) {
            mismatches.add("connectors " + expect.get("connectors") + " but got " + connectors);
        }
        return mismatches.isEmpty() ? CaseResult.passed(ctx)
                : CaseResult.failed(ctx, "the suggestion", String.join("; ", mismatches));
    }

    /** Entries without what every suggested entry has: {@code verdict: allow} and the default transport. */
    private static ArrayNode normalised(JsonNode entries) {
        ArrayNode out = Shape.NODES.arrayNode();
        entries.forEach(e -> {
            ObjectNode copy = e.deepCopy();
            if ("allow".equals(copy.path("verdict").asText())) {
                copy.remove("verdict");
            }
            if ("upstream".equals(copy.path("transport").asText())) {
                copy.remove("transport");
            }
            out.add(copy);
        });
        return out;
    }

    /** One traffic item as the proxy records it: a request ({@code url}) or a connection. */
    private static RecordedDecision egress(JsonNode t, String pointer, int second) {
        Verdict verdict = Verdict.fromWire(t.path("verdict").asText("allow"));
        if (verdict == null) {
            throw new FormatProblem(pointer + "/verdict", "verdict must be allow or deny");
        }
        String reason = verdict == Verdict.ALLOW ? "entry-allow" : "default-deny";
        Instant at = AT.plusSeconds(second);
        String caller = t.hasNonNull("caller") ? t.get("caller").asText() : null;
        for (EgressListener l : List.of(EgressListener.CONNECT, EgressListener.PASSTHROUGH)) {
            if (t.has(l.wire())) {
                // `host:port` as the audit line's target; a URI would refuse an internationalised name
                String target = t.get(l.wire()).asText();
                int colon = target.lastIndexOf(':');
                int port = colon < 1 ? -1 : port(target.substring(colon + 1));
                if (port < 1) {
                    throw new FormatProblem(pointer + "/" + l.wire(), "a connection target is `host:port`");
                }
                String host = target.substring(0, colon);
                host = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
                return new RecordedDecision.Egress(at, "sb", l, host, port, null, null, caller, verdict, reason);
            }
        }
        if (!t.has("url")) {
            throw new FormatProblem(pointer, "a traffic item has one of `url`, `connect`, `passthrough`");
        }
        URI url = uri(t.get("url").asText(), pointer + "/url");
        EgressListener l = "http".equals(url.getScheme()) ? EgressListener.HTTP : EgressListener.INTERCEPTED;
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String method = t.path("method").asText("GET");
        GraphqlSummary judged = t.has("graphql") ? judged(method, t.get("graphql"), pointer + "/graphql") : null;
        return new RecordedDecision.Egress(at, "sb", l, host(url), port(url), method, path, caller, verdict, reason,
                judged);
    }

    /**
     * The operations a GraphQL fence judged in the item's {@code graphql}: one document, or a list of them (a batch),
     * read by the fence's own reader as the proxy reads the request it records (URL parameters on GET, else JSON).
     */
    private static GraphqlSummary judged(String method, JsonNode graphql, String pointer) {
        List<String> documents = new ArrayList<>();
        (graphql.isArray() ? graphql : Shape.NODES.arrayNode().add(graphql)).forEach(d -> documents.add(d.asText()));
        if (documents.isEmpty() || !graphql.isArray() && !graphql.isTextual()) {
            throw new FormatProblem(pointer, "graphql is a document or a list of them (a batch)");
        }
        GraphqlExchange exchange;
        if (method.equals("GET") && documents.size() == 1) {
            exchange = GraphqlExchange.of(method, null, "query=" + URLEncoder.encode(documents.get(0),
                    StandardCharsets.UTF_8), null, false, false);
        } else {
            ArrayNode batch = Shape.NODES.arrayNode();
            documents.forEach(d -> batch.addObject().put("query", d));
            byte[] body = (documents.size() == 1 ? batch.get(0) : batch).toString().getBytes(StandardCharsets.UTF_8);
            exchange = GraphqlExchange.of(method, "application/json", null, body, false, false);
        }
        return READER.read(exchange).orElseThrow(() -> new FormatProblem(pointer,
                "a graphql fence cannot read this request (a document with several operations needs one request each)"));
    }

    private static URI uri(String text, String pointer) {
        try {
            URI u = new URI(text);
            if (u.getHost() == null || !List.of("http", "https").contains(u.getScheme())) {
                throw new URISyntaxException(text, "an http or https URL with a host");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new FormatProblem(pointer, "not a URL with a host: " + e.getReason());
        }
    }

    private static String host(URI u) {
        String h = u.getHost();
        return h.startsWith("[") ? h.substring(1, h.length() - 1) : h;
    }

    private static int port(URI u) {
        return u.getPort() > 0 ? u.getPort() : "http".equals(u.getScheme()) ? 80 : 443;
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            return port > 0 && port < 65536 ? port : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static int threshold(JsonNode node, String key, int absent, String pointer) {
        if (!node.has(key)) {
            return absent;
        }
        if (!node.get(key).canConvertToInt() || !node.get(key).isIntegralNumber() || node.get(key).asInt() < 2) {
            throw new FormatProblem(pointer + "/" + key, key + " must be a whole number of at least 2");
        }
        return node.get(key).asInt();
    }
}
