package dev.stockade.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.McpCalls;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The authorization matrix of the MCP endpoint: every platform tool, called at {@code /mcp} by seven kinds of caller,
 * must answer exactly what {@code access/mcp-tool-matrix.csv} says. That table is written from the spec and the
 * documented roles, not from the code's tables: an unlisted tool is -32602, a refusal is its exact problem code
 * (cross-tenant ones naming the scope's own id), and an allowed call either runs ({@code ok}) or reaches its handler,
 * which answers about the resource itself (a sandbox id that names nothing).
 */
@MicronautTest(transactional = false)
class McpToolMatrixTest extends OidcPlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z]+)}");

    @Inject
    ToolCatalog catalog;

    /** The callers, in the table's column order. */
    enum Who { OWNER, ORG_ADMIN, ORG_MEMBER, PROJECT_ADMIN_TOKEN, MEMBER_TOKEN, FOREIGN_TOKEN, SANDBOX }

    private record Row(String tool, String arguments, Map<Who, String> expected) {
    }

    private record Fixture(Map<String, String> ids, Map<Who, String> tokens) {
    }

    private static List<Row> table() throws IOException {
        List<Row> rows = new ArrayList<>();
        try (InputStream in = McpToolMatrixTest.class.getResourceAsStream("/access/mcp-tool-matrix.csv")) {
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
            assertThat(lines.get(0)).isEqualTo("tool;arguments;owner;org-admin;org-member;project-admin-token;"
                    + "member-token;foreign-token;sandbox");
            for (String line : lines.subList(1, lines.size())) {
                String[] cells = line.split(";", -1);
                assertThat(cells).as(line).hasSize(2 + Who.values().length);
                Map<Who, String> expected = new EnumMap<>(Who.class);
                for (Who who : Who.values()) {
                    expected.put(who, cells[2 + who.ordinal()]);
                }
                rows.add(new Row(cells[0], cells[1], expected));
            }
        }
        return rows;
    }

    private String person(String subject) {
        return token(subject, Map.of("email", subject + "@example.com", "email_verified", true));
    }

    private String userId(String subject) {
        return http.get("/v1/auth/me", person(subject)).text("id");
    }

    private Fixture fixture() {
        String owner = ownerToken();
        String org = createOrg(owner, "m-" + UUID.randomUUID());
        String project = createProject(owner, org, "p");
        assertThat(http.put("/v1/orgs/" + org + "/members/" + userId("mcp-admin"), owner, Map.of("role", "ADMIN"))
                .status()).isEqualTo(204);
        assertThat(http.put("/v1/orgs/" + org + "/members/" + userId("mcp-member"), owner, Map.of("role", "MEMBER"))
                .status()).isEqualTo(204);
        Http.Response admin = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "a"));
        assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + admin.text("id"), owner,
                Map.of("role", "ADMIN")).status()).isEqualTo(204);
        Http.Response member = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "m"));
        assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + member.text("id"), owner,
                Map.of("role", "MEMBER")).status()).isEqualTo(204);
        String foreign = createApiToken(owner, createOrg(owner, "f-" + UUID.randomUUID()), "f");
        String sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s"))
                .text("token");
        Http.Response server = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                Map.of("name", "c", "url", "http://127.0.0.1:9/mcp"));
        assertThat(server.status()).as(server.raw()).isEqualTo(201);
        Http.Response policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "given"));
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        Http.Response limit = http.put("/v1/orgs/" + org + "/spending-limits/org", owner, Map.of("amountUsd", "50"));
        assertThat(limit.status()).as(limit.raw()).isEqualTo(200);
        Map<Who, String> tokens = new EnumMap<>(Who.class);
        tokens.put(Who.OWNER, owner);
        tokens.put(Who.ORG_ADMIN, person("mcp-admin"));
        tokens.put(Who.ORG_MEMBER, person("mcp-member"));
        tokens.put(Who.PROJECT_ADMIN_TOKEN, admin.text("token"));
        tokens.put(Who.MEMBER_TOKEN, member.text("token"));
        tokens.put(Who.FOREIGN_TOKEN, foreign);
        tokens.put(Who.SANDBOX, sandbox);
        Map<String, String> ids = new HashMap<>(Map.of("orgId", org, "projectId", project, "serverId",
                server.text("id"), "policyId", policy.text("id"), "memberTokenId", member.text("id"),
                "sandbox", UUID.randomUUID().toString(), "spec", UUID.randomUUID().toString()));
        return new Fixture(ids, tokens);
    }

    @Test
    void everyPlatformToolAnswersEveryKindOfCallerExactlyAsTheTableSays() throws Exception {
        List<Row> table = table();
        assertThat(table.stream().map(Row::tool)).as("one row per platform tool, no more")
                .containsExactlyInAnyOrderElementsOf(catalog.platformTools().stream().map(PlatformTool::name).toList());
        Fixture shared = fixture();
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Row row : table) {
            for (Who who : Who.values()) {
                String expected = row.expected().get(who);
                boolean writes = !row.tool().matches("(list|get|query|diff)_.*");
                Fixture f = writes && !expected.equals("unknown") ? fixture() : shared;
                JsonNode answer = new McpCalls(server.getURI()).call(f.tokens().get(who), row.tool(),
                        JSON.readTree(fill(row.arguments(), f.ids())));
                checked++;
                String problem = mismatch(answer, expected, f.ids());
                if (problem != null) {
                    failures.add(row.tool() + " as " + who + ": expected " + expected + ", " + problem);
                }
            }
        }
        assertThat(checked).isEqualTo(table.size() * Who.values().length);
        assertThat(failures).as("checked %d calls", checked).isEmpty();
    }

    /** Null when {@code answer} is what the cell says; else what it was. */
    private static String mismatch(JsonNode answer, String expected, Map<String, String> ids) {
        if (answer.has("error")) {
            boolean unknown = answer.path("error").path("code").asInt() == -32602
                    && answer.path("error").path("message").asText().startsWith("Unknown tool");
            return expected.equals("unknown") && unknown ? null : "got " + answer;
        }
        JsonNode result = answer.path("result");
        if (expected.equals("ok")) {
            return result.path("isError").asBoolean(true) ? "got " + answer : null;
        }
        String[] cell = expected.split(":", 2);
        JsonNode problem = result.path("structuredContent");
        boolean matches = result.path("isError").asBoolean(false) && problem.path("code").asText().equals(cell[0])
                && (cell.length == 1 || problem.path("detail").asText().contains(ids.get(cell[1])));
        return matches ? null : "got " + answer;
    }

    private static String fill(String template, Map<String, String> ids) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = m.group(1).equals("name") ? "n" + UUID.randomUUID().toString().substring(0, 8)
                    : ids.get(m.group(1));
            assertThat(value).as("the fixture has no `%s`", m.group(1)).isNotNull();
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
