package dev.stockade.api.governance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code POST .../policy-checks}: the core's lint of a draft over HTTP, for an org and a project; nothing is saved. */
@MicronautTest(transactional = false)
class PolicyCheckApiTest extends PlatformTest {
    @Test
    void aDraftIsCheckedWithPositionsAndNothingIsSaved() {
        String owner = ownerToken();
        String org = createOrg(owner, "checks");
        Http.Response bad = http.send("POST", "/v1/orgs/" + org + "/policy-checks", owner, "application/yaml",
                "name: x\nallowedDomainz: []\n");
        assertThat(bad.status()).as(bad.raw()).isEqualTo(200);
        assertThat(bad.body().path("valid").asBoolean()).isFalse();
        JsonNode p = bad.body().path("problems").get(0);
        assertThat(p.path("code").asText()).isEqualTo("unknown-key");
        assertThat(p.path("line").asInt()).isEqualTo(2);
        assertThat(p.path("column").asInt()).isEqualTo(1);
        assertThat(p.path("rendered").asText()).contains(" 2 | allowedDomainz: []\n   | ^\n");
        assertThat(http.get("/v1/orgs/" + org + "/policies", owner).body().path("items")).isEmpty();

        String project = createProject(owner, org, "p");
        Http.Response good = http.send("POST", "/v1/projects/" + project + "/policy-checks", owner,
                "application/json", Map.of("name", "ok", "allowedDomains",
                        java.util.List.of(Map.of("pattern", "github.com", "verdict", "allow"))));
        assertThat(good.status()).as(good.raw()).isEqualTo(200);
        assertThat(good.body().path("valid").asBoolean()).isTrue();
        assertThat(good.body().path("rows").get(0).path("schemeTransport").asText()).isEqualTo("*/upstream");
        assertThat(http.get("/v1/projects/" + project + "/policies", owner).body().path("items")).isEmpty();
    }
}
