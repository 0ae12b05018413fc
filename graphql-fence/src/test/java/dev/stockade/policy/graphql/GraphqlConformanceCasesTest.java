package dev.stockade.policy.graphql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the decision cases of {@code conformance/graphql/*.yaml} against the fences alone, with a minimal
 * stand-in for the decision program (first entry with the exact host, rules as alternatives, spec rule 6).
 * The real runner (stockade policy test) arrives with the CLI; this keeps the cases honest until then.
 */
class GraphqlConformanceCasesTest {

    static final Path DIR = Path.of("..", "conformance-tests", "src", "test", "resources", "conformance", "graphql");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> graphqlConformanceCases() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode suite : suites(file)) {
                    JsonNode policy = policy(file, suite.get("policies").get(0));
                    tests.add(DynamicTest.dynamicTest(file.getFileName() + " / " + suite.get("name").asText()
                            + " / the policy is valid", () -> {
                        ReadResult read = PolicyReader.read("policy", JSON.writeValueAsString(policy));
                        assertThat(read.problems()).isEmpty();
                    }));
                    for (JsonNode c : suite.path("cases")) {
                        tests.add(DynamicTest.dynamicTest(file.getFileName() + " / " + suite.get("name").asText()
                                + " / " + c.get("name").asText(), () -> run(policy, c)));
                    }
                }
            }
        }
        assertThat(tests).hasSizeGreaterThan(50);
        return tests.stream();
    }

    static List<JsonNode> suites(Path file) throws IOException {
        List<JsonNode> suites = new ArrayList<>();
        try (YAMLParser parser = new YAMLFactory().createParser(file.toFile())) {
            Iterator<JsonNode> it = YAML.readValues(parser, JsonNode.class);
            it.forEachRemaining(suites::add);
        }
        return suites;
    }

    static JsonNode policy(Path file, JsonNode ref) throws IOException {
        return ref.isTextual() ? YAML.readTree(file.getParent().resolve(ref.asText()).toFile()) : ref;
    }

    static void run(JsonNode policy, JsonNode c) throws IOException {
        JsonNode request = c.get("request");
        URI url = URI.create(request.get("url").asText());
        String method = request.path("method").asText("GET");
        Map<String, String> headers = JSON.convertValue(request.path("headers").isMissingNode()
                ? JSON.createObjectNode() : request.get("headers"), Map.class);
        String contentType = headers.get("Content-Type");
        String query = url.getRawQuery();
        byte[] body = null;
        if (request.has("graphql")) {
            ObjectNode payload = (ObjectNode) request.get("graphql");
            if (method.equals("GET")) {
                StringBuilder q = new StringBuilder(query == null ? "" : query);
                payload.fields().forEachRemaining(e -> q.append(q.length() == 0 ? "" : "&").append(e.getKey()).append('=')
                        .append(URLEncoder.encode(e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString(),
                                StandardCharsets.UTF_8)));
                query = q.toString();
            } else {
                body = JSON.writeValueAsBytes(payload);
                contentType = contentType == null ? "application/json" : contentType;
            }
        } else if (request.has("body")) {
            body = request.get("body").asText().getBytes(StandardCharsets.UTF_8);
        }
        boolean upgrade = "websocket".equalsIgnoreCase(headers.getOrDefault("Upgrade", ""));
        GraphqlExchange exchange = GraphqlExchange.of(method, contentType, query, body, false, upgrade);
        String verdict = decide(policy, url, method, exchange) ? "allow" : "deny";
        assertThat(verdict).isEqualTo(c.get("expect").get("verdict").asText());
    }

    static boolean decide(JsonNode policy, URI url, String method, GraphqlExchange exchange) {
        for (JsonNode entry : policy.path("allowedDomains")) {
            if (!entry.get("pattern").asText().equals(url.getHost())) {
                continue;
            }
            if (!entry.get("verdict").asText().equals("allow")) {
                return false;
            }
            if (!entry.has("rules")) {
                return true;
            }
            boolean graphqlCovered = false;
            boolean graphqlAdmits = false;
            boolean plainAdmits = false;
            for (JsonNode rule : entry.get("rules")) {
                if (rule.has("method") && !rule.get("method").asText().equalsIgnoreCase(method)) {
                    continue;
                }
                if (rule.has("path") && !Glob.compile(GlobKind.PATH, rule.get("path").asText()).glob()
                        .matches(url.getRawPath())) {
                    continue;
                }
                if (rule.has("graphql")) {
                    graphqlCovered = true;
                    GraphqlFenceSet set = GraphqlFenceSet.allOf(List.of(fence(rule.get("graphql"))),
                            GraphqlLimits.defaults());
                    graphqlAdmits |= set.judge(exchange).allowed();
                } else {
                    plainAdmits = true;
                }
            }
            return graphqlCovered ? graphqlAdmits : plainAdmits;
        }
        return policy.path("networkDefaultVerdict").asText("deny").equals("allow");
    }

    static GraphqlFence fence(JsonNode node) {
        List<String> fields = null;
        if (node.has("fields")) {
            fields = new ArrayList<>();
            for (JsonNode f : node.get("fields")) {
                fields.add(f.asText());
            }
        }
        List<ArgumentCondition> arguments = null;
        if (node.has("arguments")) {
            arguments = new ArrayList<>();
            for (JsonNode a : node.get("arguments")) {
                arguments.add(new ArgumentCondition(a.get("field").asText(), a.get("pointer").asText(),
                        a.get("glob").asText()));
            }
        }
        return new GraphqlFence(OperationType.fromWire(node.get("operationType").asText()),
                node.has("operationName") ? node.get("operationName").asText() : null, fields, arguments);
    }
}
