package dev.stockade.api.spend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code /v1/orgs/{orgId}/spending-limits}: set, list, status, delete, validation, tenancy and who may do what. */
@MicronautTest(transactional = false)
class SpendingLimitsApiTest extends SpendPlatformTest {

    @Test
    void limitsAreSetReplacedListedWithTheirStatusAndDeleted() {
        String owner = ownerToken();
        String org = world.org();
        String project = world.project(org, "p");
        String sandbox = world.sandbox(project, "s");
        String limits = "/v1/orgs/" + org + "/spending-limits";
        Http.Response set = world.limit(org, "/org", "100", null, owner);
        assertThat(set.status()).as(set.raw()).isEqualTo(200);
        assertThat(set.text("scope")).isEqualTo("org");
        assertThat(set.text("amountUsd")).isEqualTo("100.000000");
        assertThat(set.text("period")).isEqualTo("month");
        assertThat(set.text("updatedBy")).startsWith("installation-owner:");
        assertThat(world.limit(org, "/org", "120.5", "day", owner).text("amountUsd")).isEqualTo("120.500000");
        world.limit(org, "/projects/" + project, "40", null, owner);
        world.limit(org, "/projects/" + project + "/sandboxes/" + sandbox, "0.25", null, owner);

        JsonNode items = http.get(limits, owner).body().path("items");
        assertThat(items).hasSize(3);
        assertThat(items.get(0).path("period").asText()).isEqualTo("day"); // replaced, not added
        assertThat(List.of(items.get(0).path("scope").asText(), items.get(1).path("scope").asText(),
                items.get(2).path("scope").asText())).containsExactly("org", "project", "sandbox");
        assertThat(items.get(2).path("sandboxId").asText()).isEqualTo(sandbox);
        assertThat(items.get(2).path("projectId").asText()).isEqualTo(project);

        world.spend(org, project, sandbox, "0.1", null);
        JsonNode status = http.get(limits + "/status", owner).body();
        JsonNode cap = status.path("items").get(2);
        assertThat(cap.path("spentUsd").asText()).isEqualTo("0.100000");
        assertThat(cap.path("remainingUsd").asText()).isEqualTo("0.150000");
        assertThat(cap.path("exceeded").asBoolean()).isFalse();
        assertThat(Instant.parse(cap.path("periodEnd").asText())).isAfter(Instant.parse(status.path("at").asText()));
        JsonNode one = http.get(limits + "/projects/" + project + "/sandboxes/" + sandbox, owner).body();
        assertThat(one.path("limitUsd").asText()).isEqualTo("0.250000");

        assertThat(http.delete(limits + "/projects/" + project + "/sandboxes/" + sandbox, owner).status())
                .isEqualTo(204);
        assertThat(http.delete(limits + "/projects/" + project, owner).status()).isEqualTo(204);
        assertThat(http.delete(limits + "/org", owner).status()).isEqualTo(204);
        assertThat(problem(http.delete(limits + "/org", owner), 404)).isEqualTo("not_found");
        assertThat(http.get(limits, owner).body().path("items")).isEmpty();

        JsonNode trail = http.get("/v1/orgs/" + org + "/audit-trail?kind=spending-limit", owner).body().path("items");
        List<String> actions = new ArrayList<>();
        trail.forEach(e -> actions.add(e.path("action").asText()));
        assertThat(actions).containsExactly("delete", "delete", "delete", "set", "set", "set", "set");
    }

    @Test
    void badAmountsAndPeriodsAreProblemsNamingTheField() {
        String owner = ownerToken();
        String org = world.org();
        String path = "/v1/orgs/" + org + "/spending-limits/org";
        for (String bad : List.of("abc", "-1", "1.1234567", "1e3", "2000000000", "", " 5")) {
            Http.Response r = http.put(path, owner, Map.of("amountUsd", bad));
            assertThat(problem(r, 400)).as(bad).isEqualTo("validation_failed");
            assertThat(r.body().path("errors").get(0).path("pointer").asText()).as(bad).isEqualTo("/amountUsd");
        }
        assertThat(problem(http.put(path, owner, Map.of("amountUsd", 5)), 400)).isNotBlank(); // a number, not text
        assertThat(problem(http.put(path, owner, Map.of()), 400)).isNotBlank();
        assertThat(problem(http.put(path, owner, Map.of("amountUsd", "5", "currency", "EUR")), 400)).isNotBlank();
        Http.Response week = http.put(path, owner, Map.of("amountUsd", "5", "period", "week"));
        assertThat(problem(week, 400)).isEqualTo("validation_failed");
        assertThat(week.body().path("errors").get(0).path("pointer").asText()).isEqualTo("/period");
        assertThat(http.get("/v1/orgs/" + org + "/spending-limits", owner).body().path("items")).isEmpty();
    }

    @Test
    void aProjectOrSandboxOfAnotherOrganizationIsNotFound() {
        String owner = ownerToken();
        String org = world.org();
        String mine = world.project(org, "mine");
        String other = world.org();
        String theirs = world.project(other, "theirs");
        String theirSandbox = world.sandbox(theirs, "t");
        String limits = "/v1/orgs/" + org + "/spending-limits";
        assertThat(problem(world.limit(org, "/projects/" + theirs, "1", null, owner), 404)).isEqualTo("not_found");
        // the organization in the path must be the project's own, even for a caller who administers both
        assertThat(problem(world.limit(org, "/projects/" + theirs + "/sandboxes/" + theirSandbox, "1", null, owner),
                404)).isEqualTo("not_found");
        assertThat(problem(http.get(limits + "/projects/" + theirs + "/sandboxes/" + theirSandbox, owner), 404))
                .isEqualTo("not_found");
        // a sandbox of another project of the same organization
        assertThat(problem(world.limit(org, "/projects/" + mine + "/sandboxes/" + theirSandbox, "1", null, owner),
                404)).isEqualTo("not_found");
        String foreignToken = createApiToken(owner, other, "foreign");
        assertThat(problem(http.get(limits, foreignToken), 404)).isEqualTo("not_found");
        assertThat(problem(world.limit(org, "/projects/" + mine + "/sandboxes/" + theirSandbox, "1", null,
                foreignToken), 404)).isEqualTo("not_found");
    }

    @Test
    void anOrgAdminSetsOrgAndProjectLimitsAProjectAdminCapsItsSandboxesAndTokensRead() {
        String owner = ownerToken();
        String org = world.org();
        String project = world.project(org, "p");
        String sandbox = world.sandbox(project, "s");
        Http.Response admin = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "project-admin"));
        assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + admin.text("id"), owner,
                Map.of("role", "ADMIN")).status()).isEqualTo(204);
        String projectAdmin = admin.text("token");
        String plain = createApiToken(owner, org, "plain");
        String cap = "/projects/" + project + "/sandboxes/" + sandbox;
        assertThat(world.limit(org, cap, "3", null, projectAdmin).status()).isEqualTo(200);
        assertThat(http.get("/v1/orgs/" + org + "/spending-limits" + cap, projectAdmin).status()).isEqualTo(200);
        assertThat(problem(world.limit(org, "/projects/" + project, "3", null, projectAdmin), 403))
                .isEqualTo("forbidden");
        assertThat(problem(world.limit(org, "/org", "3", null, plain), 403)).isEqualTo("forbidden");
        assertThat(problem(world.limit(org, cap, "3", null, plain), 403)).isEqualTo("forbidden");
        assertThat(http.get("/v1/orgs/" + org + "/spending-limits/status", plain).body().path("items")).hasSize(1);
    }
}
