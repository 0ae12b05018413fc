package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Organizations, projects, members, tokens, halt and the audit trail through the CLI, on the running platform. */
class LifecycleTest extends SignedInCliTest {
    private static List<String> ids(JsonNode page, String field) {
        List<String> out = new ArrayList<>();
        page.path("items").forEach(n -> out.add(n.path(field).asText()));
        return out;
    }

    @Test
    void organizationProjectAndTokenLifecycle() {
        String org = ok("orgs", "create", "lifecycle").path("id").asText();
        assertThat(ids(ok("orgs", "list"), "id")).contains(org);
        assertThat(ok("orgs", "rename", org, "lifecycle-2").path("name").asText()).isEqualTo("lifecycle-2");
        Cli.Run table = cli.run("orgs", "get", org);
        assertThat(table.out()).contains("id       " + org, "name     lifecycle-2", "halted   false");

        Cli.Run byId = cli.run("projects", "create", "--org", org, "web", "--description", "the web app",
                "--format", "id");
        assertThat(byId.status()).as(byId.toString()).isZero();
        String project = byId.out().strip();
        assertThat(cli.run("projects", "list", "--org", org, "--format", "id").out()).isEqualTo(project + "\n");
        assertThat(ids(ok("projects", "list", "--org", org), "id")).containsExactly(project);
        JsonNode updated = ok("projects", "update", project, "--name", "web-2");
        assertThat(updated.path("name").asText()).isEqualTo("web-2");
        assertThat(updated.path("description").asText()).isEqualTo("the web app");
        assertThat(ok("projects", "get", project).path("orgId").asText()).isEqualTo(org);

        Cli.Run created = cli.run("tokens", "create", "--org", org, "deploy", "--expires", "30d");
        assertThat(created.status()).as(created.toString()).isZero();
        assertThat(created.out()).containsPattern("token +stk_");
        assertThat(created.err()).contains("shown once");
        JsonNode tokens = ok("tokens", "list", "--org", org);
        String tokenId = tokens.path("items").get(0).path("id").asText();
        assertThat(tokens.path("items").get(0).path("expiresAt").asText()).isNotEmpty();
        assertThat(tokens.toString()).doesNotContain("\"token\"");
        assertThat(cli.run("tokens", "list", "--org", org).out()).contains("deploy").doesNotContain("token ");

        ok("projects", "members", "set-token", "--project", project, tokenId, "--role", "member");
        JsonNode members = ok("projects", "members", "list", "--project", project);
        assertThat(members.path("items").get(0).path("principalId").asText()).isEqualTo(tokenId);
        assertThat(members.path("items").get(0).path("role").asText()).isEqualTo("MEMBER");
        ok("projects", "members", "remove-token", "--project", project, tokenId);
        assertThat(ok("projects", "members", "list", "--project", project).path("items")).isEmpty();

        String sandbox = ok("sandbox-tokens", "create", "--project", project, "runner").path("id").asText();
        assertThat(ids(ok("sandbox-tokens", "list", "--project", project), "id")).containsExactly(sandbox);
        ok("sandbox-tokens", "revoke", sandbox);
        assertThat(ok("sandbox-tokens", "list", "--project", project).path("items").get(0).path("revokedAt")
                .isNull()).isFalse();
        ok("tokens", "revoke", tokenId);
        assertThat(ok("tokens", "get", tokenId).path("revokedAt").asText()).isNotEmpty();

        assertThat(ok("halt", "on", "--org", org).path("halted").asBoolean()).isTrue();
        assertThat(ok("halt", "status", "--org", org).path("halted").asBoolean()).isTrue();
        assertThat(ok("halt", "off", "--org", org).path("halted").asBoolean()).isFalse();

        JsonNode trail = ok("audit", "--org", org, "--exclude-reads", "--all", "--limit", "2");
        List<String> actions = new ArrayList<>();
        trail.path("items").forEach(e -> actions.add(e.path("kind").asText() + "/" + e.path("action").asText()));
        assertThat(actions).contains("organization/create", "project/create", "api-token/create", "halt/halt",
                "halt/lift", "sandbox-token/revoke");
        assertThat(trail.path("nextCursor").isNull()).isTrue();
        JsonNode halts = ok("audit", "--org", org, "--kind", "halt", "--since", "1h");
        assertThat(halts.path("items")).hasSize(2);

        Cli.Run blocked = cli.run("orgs", "delete", org);
        assertThat(blocked.status()).isEqualTo(Exit.REFUSED);
        assertThat(blocked.err()).contains("(dependants_exist, HTTP 409)", "  /projects/" + project + ": ");
        ok("projects", "delete", project);
        ok("orgs", "delete", org);
        assertThat(cli.run("orgs", "get", org).status()).isEqualTo(Exit.REFUSED);
    }

    @Test
    void invitations() {
        String org = ok("orgs", "create", "inviting").path("id").asText();
        JsonNode created = ok("invitations", "create", "--org", org, "ada@example.com", "--role", "admin");
        assertThat(created.path("email").asText()).isEqualTo("ada@example.com");
        assertThat(created.path("role").asText()).isEqualTo("ADMIN");
        String id = created.path("id").asText();
        assertThat(cli.run("invitations", "list", "--org", org).out()).contains(id, "ada@example.com", "ADMIN");
        ok("invitations", "delete", "--org", org, id);
        assertThat(ok("invitations", "list", "--org", org).path("items")).isEmpty();

        // Only users signed in through the identity provider have invitations of their own.
        Cli.Run mine = cli.run("invitations", "mine");
        assertThat(mine.status()).isEqualTo(Exit.REFUSED);
        assertThat(mine.err()).contains("HTTP 403");
    }

    @Test
    void aNotFoundIsRenderedForPeople() {
        String missing = UUID.randomUUID().toString();
        Cli.Run run = cli.run("orgs", "get", missing);
        assertThat(run.status()).isEqualTo(Exit.REFUSED);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("error: organization `" + missing + "` not found (not_found, HTTP 404)\n");
    }

    @Test
    void aValidationProblemListsItsErrors() {
        Cli.Run run = cli.run("orgs", "create", "");
        assertThat(run.status()).isEqualTo(Exit.REFUSED);
        assertThat(run.err()).startsWith("error: 2 fields are invalid (validation_failed, HTTP 400)\n")
                .contains("\n  /name: `/name` must not be blank\n");

        String org = ok("orgs", "create", "validation").path("id").asText();
        Cli.Run json = cli.run("audit", "--org", org, "--limit", "0", "--format", "json");
        assertThat(json.status()).isEqualTo(Exit.REFUSED);
        assertThat(json.err()).contains("(invalid_parameter, HTTP 400)", "  /limit: ");
        assertThat(json.json().path("status").asInt()).isEqualTo(400);
        assertThat(json.json().path("errors").get(0).path("pointer").asText()).isEqualTo("/limit");
    }

    @Test
    void anIdCannotChangeThePath() {
        Cli.Run run = cli.run("orgs", "get", "../installation");
        assertThat(run.status()).isEqualTo(Exit.REFUSED);
        assertThat(run.err()).contains("(invalid_parameter, HTTP 400)");
    }

    @Test
    void badTimesAreUsageErrorsAndSendNothing() {
        Cli.Run run = cli.run("tokens", "create", "--org", UUID.randomUUID().toString(), "x", "--expires", "soon");
        assertThat(run.status()).isEqualTo(Exit.USAGE);
        assertThat(run.err()).contains("`--expires` must be an ISO 8601 instant");
        Cli.Run update = cli.run("projects", "update", UUID.randomUUID().toString());
        assertThat(update.status()).isEqualTo(Exit.USAGE);
        assertThat(update.err()).contains("give --name, --description or both");
    }
}
