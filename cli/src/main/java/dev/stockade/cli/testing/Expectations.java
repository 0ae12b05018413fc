package dev.stockade.cli.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.cli.testing.CaseResult.CaseContext;
import dev.stockade.policy.compiler.DescribeRows;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyWriter;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.Severity;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** How each kind of case compares what it expected with what happened. */
final class Expectations {
    /** Top-level policy keys whose empty value means the same as an absent key. */
    private static final Set<String> LIST_KEYS = Set.of("allowedDomains", "credentials", "connectors", "integrations", "env");

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper()
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);

    private Expectations() {
    }

    static List<Problem> errorsOf(List<Problem> problems) {
        return problems.stream().filter(p -> p.severity() == Severity.ERROR).toList();
    }

    /** One line naming every problem's pointer and code, the first one's message in full. */
    static String describe(List<Problem> problems) {
        if (problems.isEmpty()) {
            return "no problems";
        }
        Problem first = problems.get(0);
        StringBuilder out = new StringBuilder(pointerOf(first)).append(' ').append(first.code())
                .append(" (").append(first.message()).append(')');
        for (Problem p : problems.subList(1, problems.size())) {
            out.append(", ").append(pointerOf(p)).append(' ').append(p.code());
        }
        return out.toString();
    }

    private static String pointerOf(Problem p) {
        return p.pointer().isEmpty() ? "/" : p.pointer();
    }

    static String compact(JsonNode node) {
        return node == null ? "null" : node.toString();
    }

    /**
     * FORMAT.md: each expected pointer must be matched by a problem at it or beneath it; with
     * {@code exactly}, every problem must match an expected pointer.
     */
    static CaseResult pointers(CaseContext ctx, JsonNode expect, List<Problem> problems) {
        List<String> expected = new ArrayList<>();
        expect.path("errors").forEach(e -> expected.add(e.asText()));
        for (String pointer : expected) {
            if (problems.stream().noneMatch(p -> within(p.pointer(), pointer))) {
                return CaseResult.failed(ctx, "a problem at " + pointer, describe(problems));
            }
        }
        if (expect.path("exactly").asBoolean(false)) {
            for (Problem p : problems) {
                if (expected.stream().noneMatch(pointer -> within(p.pointer(), pointer))) {
                    return CaseResult.failed(ctx, "problems only at " + expected, describe(problems));
                }
            }
        }
        return CaseResult.passed(ctx);
    }

    static boolean within(String reported, String expected) {
        return reported.equals(expected) || expected.isEmpty() || reported.startsWith(expected + "/");
    }

    /** Compares two policy documents after normalisation (absent and default values not distinguished). */
    static CaseResult sameDocument(CaseContext ctx, JsonNode expected, JsonNode actual) {
        JsonNode want = normalise(expected);
        JsonNode got = normalise(actual);
        boolean same = want == null ? got == null : want.equals(got);
        return same ? CaseResult.passed(ctx) : CaseResult.failed(ctx, compact(want), compact(got));
    }

    static JsonNode normalise(JsonNode policy) {
        if (policy == null || policy.isNull() || policy.isMissingNode()) {
            return null;
        }
        ObjectNode copy = policy.deepCopy();
        dropNulls(copy);
        removeIf(copy, "networkDefaultVerdict", "deny");
        removeIf(copy, "networkDefaultTransport", "upstream");
        for (String key : LIST_KEYS) {
            if (copy.path(key).isContainerNode() && copy.get(key).isEmpty()) {
                copy.remove(key);
            }
        }
        for (JsonNode entry : copy.path("allowedDomains")) {
            if (entry.isObject() && !"allow".equals(entry.path("verdict").asText())) {
                ((ObjectNode) entry).remove("transport");
            }
            if (entry.isObject()) {
                removeIf((ObjectNode) entry, "transport", "upstream");
            }
        }
        if (copy.path("piiMasking").isObject()) {
            removeIf((ObjectNode) copy.get("piiMasking"), "failOpen", "false");
        }
        return copy;
    }

    private static void removeIf(ObjectNode node, String key, String defaultValue) {
        if (node.has(key) && node.get(key).asText().equals(defaultValue)) {
            node.remove(key);
        }
    }

    private static void dropNulls(JsonNode node) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> it = object.fields();
            while (it.hasNext()) {
                JsonNode value = it.next().getValue();
                if (value.isNull()) {
                    it.remove();
                } else {
                    dropNulls(value);
                }
            }
        } else if (node instanceof ArrayNode array) {
            array.forEach(Expectations::dropNulls);
        }
    }

    /** Describe rows compare line by line; runs of spaces between columns count as the two of FORMAT.md. */
    static CaseResult rows(CaseContext ctx, JsonNode expect, List<String> rows) {
        List<String> want = new ArrayList<>();
        expect.forEach(r -> want.add(columns(r.asText())));
        List<String> got = rows.stream().map(Expectations::columns).toList();
        return want.equals(got) ? CaseResult.passed(ctx) : CaseResult.failed(ctx, String.join(" | ", want), String.join(" | ", got));
    }

    private static String columns(String row) {
        return row.strip().replaceAll(" {2,}", "  ");
    }

    static CaseResult decision(CaseContext ctx, JsonNode expect, Decision decision) {
        String verdict = decision.verdict().wire();
        String transport = decision.transport() == null ? "-" : decision.transport().wire();
        String want = expect.get("verdict").asText();
        String got = verdict + (decision.allowed() ? " " + transport : "") + " (" + decision.reason().code() + ": " + decision.detail() + ")";
        if (!want.equals(verdict)) {
            return CaseResult.failed(ctx, want, got);
        }
        if (expect.has("transport") && !expect.get("transport").asText().equals(transport)) {
            return CaseResult.failed(ctx, want + " " + expect.get("transport").asText(), got);
        }
        return CaseResult.passed(ctx);
    }

    static CaseResult effective(CaseContext ctx, JsonNode expect, Resolution resolution) {
        Map<String, String> env = resolution.sandboxEnv();
        List<String> mismatches = new ArrayList<>();
        if (expect.has("managedInference")) {
            JsonNode actual = managedInference(resolution);
            if (!partialMatch(expect.get("managedInference"), actual)) {
                mismatches.add("managedInference " + compact(expect.get("managedInference")) + " but got " + compact(actual));
            }
        }
        if (expect.has("piiMasking")) {
            String mismatch = piiMasking(expect.get("piiMasking"), resolution);
            if (mismatch != null) {
                mismatches.add(mismatch);
            }
        }
        expect.path("sandboxEnv").fields().forEachRemaining(e -> {
            if (!e.getValue().asText().equals(env.get(e.getKey()))) {
                mismatches.add(e.getKey() + "=" + e.getValue().asText() + " but got " + env.get(e.getKey()));
            }
        });
        expect.path("sandboxEnvKeys").forEach(k -> {
            if (!env.containsKey(k.asText())) {
                mismatches.add(k.asText() + " set but it is absent");
            }
        });
        expect.path("absentEnvKeys").forEach(k -> {
            if (env.containsKey(k.asText())) {
                mismatches.add(k.asText() + " absent but it is set");
            }
        });
        if (expect.has("connectorGrants")) {
            JsonNode actual = JSON.valueToTree(resolution.connectorGrants());
            if (!sameGrants(expect.get("connectorGrants"), actual)) {
                mismatches.add("connectorGrants " + compact(expect.get("connectorGrants")) + " but got " + compact(actual));
            }
        }
        if (expect.has("boundCredentials")) {
            List<String> want = new ArrayList<>();
            expect.get("boundCredentials").forEach(n -> want.add(n.asText()));
            if (!want.equals(resolution.boundCredentials())) {
                mismatches.add("boundCredentials " + want + " but got " + resolution.boundCredentials());
            }
        }
        if (expect.has("domains")) {
            CaseResult rows = rows(ctx, expect.get("domains"), DescribeRows.of(resolution.effective()));
            if (rows.status() == CaseResult.Status.FAILED) {
                mismatches.add("domains " + rows.expected() + " but got " + rows.actual());
            }
        }
        return mismatches.isEmpty() ? CaseResult.passed(ctx) : CaseResult.failed(ctx, "effective policy", String.join("; ", mismatches));
    }

    private static JsonNode managedInference(Resolution resolution) {
        if (resolution.managedInference() == null) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("enabled", false);
        }
        return PolicyWriter.toTree(Policy.named("effective").withManagedInference(resolution.managedInference()))
                .get("managedInference");
    }

    /**
     * The resolved masking block against {@code want}: {@code null} wants no masking; otherwise every key written
     * must be equal ({@code types} as the list in {@code MaskingType} order). Null when they agree.
     */
    private static String piiMasking(JsonNode want, Resolution resolution) {
        JsonNode got = resolution.piiMasking() == null ? null : JSON.valueToTree(resolution.piiMasking());
        boolean ok = want.isNull() ? got == null : got != null && partialMatch(want, got);
        return ok ? null : "piiMasking " + compact(want) + " but got " + (got == null ? "null" : compact(got));
    }

    private static boolean sameGrants(JsonNode want, JsonNode got) {
        if (!want.isArray() || want.size() != got.size()) {
            return false;
        }
        for (int i = 0; i < want.size(); i++) {
            if (!partialMatch(want.get(i), got.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Every key of {@code want} is in {@code got} with an equal value (objects compared recursively). */
    static boolean partialMatch(JsonNode want, JsonNode got) {
        if (want == null || want.isNull()) {
            return got == null || got.isNull() || !got.path("enabled").asBoolean(false);
        }
        if (got == null || !want.isObject()) {
            return want.equals(got);
        }
        Iterator<Map.Entry<String, JsonNode>> it = want.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode value = got.get(e.getKey());
            boolean ok = e.getValue().isObject() ? partialMatch(e.getValue(), value) : e.getValue().equals(value);
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
