package dev.stockade.api.mcp;

import static dev.stockade.api.kernel.access.Relation.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.kernel.access.Relation;
import dev.stockade.api.kernel.access.Scope;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.McpCalls;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The authorization matrix of the MCP endpoint: every platform tool, called at {@code /mcp} by every kind of caller,
 * must be listed and refused exactly as the identity rule and the action table say, written out here independently
 * of {@link ToolCatalog} and the {@code Authorizer}: not listed is -32602 (unknown tool); listed but not allowed is a
 * tool error {@code forbidden} within the organization and {@code not_found} across it; allowed is anything else.
 */
@MicronautTest(transactional = false)
class McpToolMatrixTest extends OidcPlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    ToolCatalog catalog;

    enum Who {
        OWNER(true, Set.of(INSTALLATION_OWNER, AUTHENTICATED), Set.of(ORG_ADMIN, ORG_MEMBER, PROJECT_ADMIN,
                PROJECT_MEMBER)),
        ORG_ADMIN_USER(true, Set.of(USER, AUTHENTICATED), Set.of(ORG_ADMIN, ORG_MEMBER, PROJECT_ADMIN, PROJECT_MEMBER)),
        ORG_MEMBER_USER(true, Set.of(USER, AUTHENTICATED), Set.of(ORG_MEMBER)),
        PROJECT_ADMIN_TOKEN(false, Set.of(ORG_API_TOKEN, AUTHENTICATED), Set.of(ORG_API_TOKEN, PROJECT_ADMIN,
                PROJECT_MEMBER)),
        MEMBER_TOKEN(false, Set.of(ORG_API_TOKEN, AUTHENTICATED), Set.of(ORG_API_TOKEN, PROJECT_MEMBER)),
        FOREIGN_TOKEN(false, Set.of(ORG_API_TOKEN, AUTHENTICATED), Set.of()),
        SANDBOX(false, Set.of(SANDBOX_IDENTITY, AUTHENTICATED), Set.of(ORG_SANDBOX, PROJECT_SANDBOX));

        final boolean person;
        final Set<Relation> unscoped;
        final Set<Relation> scoped;

        Who(boolean person, Set<Relation> unscoped, Set<Relation> scoped) {
            this.person = person;
            this.unscoped = unscoped;
            this.scoped = scoped;
        }
    }

    private record Fixture(Map<String, String> ids, Map<Who, String> tokens) {
    }

    private String userId(String subject) {
        return http.get("/v1/auth/me", person(subject)).text("id");
    }

    private String person(String subject) {
        return token(subject, Map.of("email", subject + "@example.com", "email_verified", true));
    }

    private Fixture fixture() {
        String owner = ownerToken();
        String org = createOrg(owner, "m-" + UUID.randomUUID());
        String project = createProject(owner, org, "p");
        http.put("/v1/orgs/" + org + "/members/" + userId("mcp-admin"), owner, Map.of("role", "ADMIN"));
        http.put("/v1/orgs/" + org + "/members/" + userId("mcp-member"), owner, Map.of("role", "MEMBER"));
        Http.Response admin = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "a"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + admin.text("id"), owner, Map.of("role", "ADMIN"));
        Http.Response member = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "m"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + member.text("id"), owner,
                Map.of("role", "MEMBER"));
        String foreign = createApiToken(owner, createOrg(owner, "f-" + UUID.randomUUID()), "f");
        String sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s"))
                .text("token");
        String server = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                Map.of("name", "c", "url", "http://127.0.0.1:9/mcp")).text("id");
        Map<Who, String> tokens = new java.util.EnumMap<>(Who.class);
        tokens.put(Who.OWNER, owner);
        tokens.put(Who.ORG_ADMIN_USER, person("mcp-admin"));
        tokens.put(Who.ORG_MEMBER_USER, person("mcp-member"));
        tokens.put(Who.PROJECT_ADMIN_TOKEN, admin.text("token"));
        tokens.put(Who.MEMBER_TOKEN, member.text("token"));
        tokens.put(Who.FOREIGN_TOKEN, foreign);
        tokens.put(Who.SANDBOX, sandbox);
        return new Fixture(Map.of("orgId", org, "projectId", project, "serverId", server,
                "principalId", member.text("id")), tokens);
    }

    @Test
    void everyPlatformToolIsListedAndRefusedAsTheTablesSay() throws Exception {
        Fixture shared = fixture();
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (PlatformTool tool : catalog.platformTools()) {
            for (Who who : Who.values()) {
                boolean listed = listed(tool.family(), who);
                boolean allowed = allowed(tool, who);
                boolean writes = !tool.name().matches("(list|get|query|diff)_.*");
                Fixture f = writes && listed && allowed ? fixture() : shared;
                JsonNode answer = call(f.tokens().get(who), tool.name(), arguments(tool, f));
                checked++;
                String outcome = outcome(answer, f);
                String expected = !listed ? "unknown" : allowed ? "allowed" : "refused";
                if (!outcome.equals(expected)) {
                    failures.add(tool.name() + " as " + who + ": expected " + expected + ", got " + outcome + " "
                            + answer);
                }
            }
        }
        assertThat(checked).isGreaterThan(150);
        assertThat(failures).as("checked %d calls", checked).isEmpty();
    }

    /** The identity rule (spec: Authentication rule 2), written out. */
    private static boolean listed(ToolFamily family, Who who) {
        if (who.person || who == Who.OWNER) {
            return family != ToolFamily.SELF;
        }
        if (who == Who.SANDBOX) {
            return family == ToolFamily.SELF;
        }
        return family == ToolFamily.DAY_TO_DAY || family == ToolFamily.SANDBOX_ADMIN && who == Who.PROJECT_ADMIN_TOKEN;
    }

    private static boolean allowed(PlatformTool tool, Who who) {
        Set<Relation> held = tool.action().scope() == Scope.NONE ? who.unscoped : union(who);
        if (tool.action().scope() == Scope.ORG) {
            held.removeAll(EnumSet.of(PROJECT_ADMIN, PROJECT_MEMBER, PROJECT_SANDBOX));
        }
        return held.stream().anyMatch(tool.action().allowed()::contains);
    }

    private static Set<Relation> union(Who who) {
        EnumSet<Relation> out = EnumSet.noneOf(Relation.class);
        out.addAll(who.scoped);
        out.add(AUTHENTICATED);
        return out;
    }

    /** allowed, refused (forbidden, or not_found naming the scope's own id), or unknown (not listed). */
    private static String outcome(JsonNode answer, Fixture f) {
        if (answer.has("error")) {
            return answer.path("error").path("code").asInt() == -32602 ? "unknown" : "error " + answer;
        }
        JsonNode result = answer.path("result");
        String code = result.path("structuredContent").path("code").asText("");
        String detail = result.path("structuredContent").path("detail").asText("");
        boolean scopeMissing = code.equals("not_found") && (detail.contains(f.ids().get("orgId"))
                || detail.contains(f.ids().get("projectId")) || detail.contains(f.ids().get("serverId")));
        return result.path("isError").asBoolean() && (code.equals("forbidden") || scopeMissing) ? "refused"
                : "allowed";
    }

    private static ObjectNode arguments(PlatformTool tool, Fixture f) {
        ObjectNode args = JSON.createObjectNode();
        tool.inputSchema().path("required").forEach(r -> {
            String name = r.asText();
            String fixed = f.ids().get(name);
            switch (name) {
                case "principalType" -> args.put(name, "api-token");
                case "role" -> args.put(name, "MEMBER");
                case "halted" -> args.put(name, false);
                case "policy" -> args.putObject(name).put("name", "p");
                case "sandbox" -> args.putObject(name).put("name", ""); // authorized, then invalid: no sandbox starts
                case "url" -> args.put(name, "http://127.0.0.1:9/mcp");
                case "name" -> args.put(name, "n" + UUID.randomUUID().toString().substring(0, 8));
                default -> args.put(name, fixed != null ? fixed : UUID.randomUUID().toString());
            }
        });
        return args;
    }

    private JsonNode call(String token, String tool, ObjectNode args) throws Exception {
        return new McpCalls(server.getURI()).call(token, tool, args);
    }
}
