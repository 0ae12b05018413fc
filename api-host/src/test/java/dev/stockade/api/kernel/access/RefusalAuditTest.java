package dev.stockade.api.kernel.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every refusal of the authorization table is in an audit trail (docs/platform.md, "Audit trail"): a 403 within the
 * caller's organization in that organization's trail, a 404 for another tenant's id in the caller's own trail and
 * never in the target's; bad input (400) is not a refusal.
 */
@MicronautTest(transactional = false)
class RefusalAuditTest extends PlatformTest {

    private List<JsonNode> accessEntries(String org, String owner) {
        Http.Response page = http.get("/v1/orgs/" + org + "/audit-trail?kind=access&limit=500", owner);
        assertThat(page.status()).as(page.raw()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        page.body().path("items").forEach(out::add);
        return out;
    }

    @Test
    void aRefusalWithinTheOrganizationIsAuditedThere() {
        String owner = ownerToken();
        String org = createOrg(owner, "refusals-within");
        String token = createApiToken(owner, org, "no-project-role");

        Http.Response refused = http.post("/v1/orgs/" + org + "/halt", token, java.util.Map.of());
        assertThat(problem(refused, 403)).isEqualTo("forbidden");

        List<JsonNode> entries = accessEntries(org, owner);
        assertThat(entries).hasSize(1);
        JsonNode e = entries.get(0);
        assertThat(e.path("action").asText()).isEqualTo("halt-write");
        assertThat(e.path("outcome").asText()).isEqualTo("denied");
        assertThat(e.path("actor").path("type").asText()).isEqualTo("api-token");
        assertThat(e.path("target").asText()).isEqualTo("POST /v1/orgs/" + org + "/halt");
        assertThat(e.path("details").path("status").asInt()).isEqualTo(403);
        // the refused request changed nothing: the organization is not halted
        assertThat(http.get("/v1/orgs/" + org + "/halt", owner).body().path("halted").asBoolean()).isFalse();
    }

    @Test
    void aStrangerProbingAnotherTenantIsAuditedInItsOwnTrailOnly() {
        String owner = ownerToken();
        String mine = createOrg(owner, "refusals-prober");
        String theirs = createOrg(owner, "refusals-target");
        String token = createApiToken(owner, mine, "prober");

        assertThat(problem(http.get("/v1/orgs/" + theirs + "/audit-trail", token), 404)).isEqualTo("not_found");

        List<JsonNode> inMine = accessEntries(mine, owner);
        assertThat(inMine).hasSize(1);
        assertThat(inMine.get(0).path("action").asText()).isEqualTo("audit-read");
        assertThat(inMine.get(0).path("details").path("status").asInt()).isEqualTo(404);
        assertThat(inMine.get(0).path("target").asText()).isEqualTo("GET /v1/orgs/" + theirs + "/audit-trail");
        assertThat(accessEntries(theirs, owner)).isEmpty();
    }

    @Test
    void aMalformedIdIsBadInputNotARefusal() {
        String owner = ownerToken();
        String org = createOrg(owner, "refusals-malformed");
        String token = createApiToken(owner, org, "typist");

        assertThat(http.get("/v1/orgs/not-a-uuid/audit-trail", token).status()).isEqualTo(400);
        // a refusal's entry is committed before the refusal is answered, so there is nothing to wait for
        assertThat(accessEntries(org, owner)).isEmpty();
    }
}
