package dev.stockade.api.impact;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Policy impact against the real platform: a real sandbox makes three requests through the in-process egress proxy
 * (two allowed, one denied), the trail records them, and {@code POST .../policy-impact} replays that trail under a
 * narrowed and a widened candidate of the sandbox's policy; every expected change is worked out from the policies.
 */
@MicronautTest(transactional = false)
class PolicyImpactApiTest extends PlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String IN_FORCE = """
            {"name":"agent","networkDefaultVerdict":"deny","allowedDomains":[
              {"pattern":"allowed.test","verdict":"allow","rules":[{"method":"GET","path":"/a/**"}]},
              {"pattern":"other.test","verdict":"allow"}]}""";
    /** other.test is gone. */
    private static final String NARROWED = """
            {"name":"agent","networkDefaultVerdict":"deny","allowedDomains":[
              {"pattern":"allowed.test","verdict":"allow","rules":[{"method":"GET","path":"/a/**"}]}]}""";
    /** denied.test is added. */
    private static final String WIDENED = """
            {"name":"agent","networkDefaultVerdict":"deny","allowedDomains":[
              {"pattern":"allowed.test","verdict":"allow","rules":[{"method":"GET","path":"/a/**"}]},
              {"pattern":"other.test","verdict":"allow"},{"pattern":"denied.test","verdict":"allow"}]}""";

    @Inject
    LocalProvisioner provisioner;

    private SandboxTraffic origin;

    @Override
    protected Map<String, String> extraProperties() {
        return SandboxTraffic.properties();
    }

    @BeforeAll
    void origin() throws Exception {
        Requires.bubblewrap();
        origin = SandboxTraffic.start();
    }

    @AfterAll
    void stopOrigin() {
        if (origin != null) {
            origin.close();
        }
    }

    @Test
    void aRecordedTrailReplaysUnderNarrowedAndWidenedCandidates() throws Exception {
        int port = origin.port();
        String owner = ownerToken();
        String org = createOrg(owner, "impact");
        String project = createProject(owner, org, "agents");
        Http.Response policy = http.send("POST", "/v1/projects/" + project + "/policies", owner, "application/json",
                IN_FORCE);
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        Http.Response created = http.send("POST", "/v1/projects/" + project + "/sandboxes", owner,
                "application/yaml", "name: caller\ncpu: 500m\nmemory: 256Mi\npolicies: [" + policy.text("id") + "]\n");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String sandbox = created.text("id");
        http.awaitState("/v1/projects/" + project + "/sandboxes/" + sandbox, owner, "running");
        Instant since = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);

        assertThat(curl(sandbox, "http://allowed.test:" + port + "/a/x")).endsWith("[200]");
        assertThat(curl(sandbox, "http://other.test:" + port + "/b")).endsWith("[200]");
        assertThat(curl(sandbox, "http://denied.test:" + port + "/c")).endsWith("[403]");
        Await.until("three egress entries", Await.LONG, () -> http.get("/v1/orgs/" + org
                + "/audit-trail?kind=egress&limit=100", owner).body().path("items").size() >= 3);

        // narrowed: other.test is gone, so the recorded GET /b would break; the other two are unchanged
        JsonNode narrowed = impact("/v1/orgs/" + org, owner, since, NARROWED);
        assertThat(narrowed.path("entries").asLong()).isEqualTo(3);
        assertThat(narrowed.path("newlyDenied").asLong()).isEqualTo(1);
        assertThat(narrowed.path("newlyAllowed").asLong()).isZero();
        assertThat(narrowed.path("unchanged").asLong()).isEqualTo(2);
        assertThat(narrowed.path("breaking").asBoolean()).isTrue();
        JsonNode broken = narrowed.path("deniedGroups").get(0);
        assertThat(broken.path("sandbox").asText()).isEqualTo(sandbox);
        assertThat(broken.path("target").asText()).isEqualTo("other.test:" + port);
        assertThat(broken.path("operation").asText()).isEqualTo("GET /b");
        assertThat(broken.path("candidateReason").asText()).isEqualTo("default-deny");

        // widened: denied.test allowed, so the recorded denial would open; nothing breaks
        JsonNode widened = impact("/v1/projects/" + project, owner, since, WIDENED);
        assertThat(widened.path("newlyAllowed").asLong()).isEqualTo(1);
        assertThat(widened.path("newlyDenied").asLong()).isZero();
        assertThat(widened.path("allowedGroups").get(0).path("operation").asText()).isEqualTo("GET /c");
        assertThat(widened.path("allowedGroups").get(0).path("recordedReason").asText()).isEqualTo("default-deny");

        // the policy in force changes nothing
        JsonNode same = impact("/v1/orgs/" + org, owner, since, IN_FORCE);
        assertThat(same.path("unchanged").asLong()).isEqualTo(3);
        assertThat(same.path("notReplayable").asLong()).isZero();
    }

    @Test
    void boundsAndBadCandidatesAreRefusedBeforeAnythingIsRead() {
        String owner = ownerToken();
        String org = createOrg(owner, "impact-bounds");
        String path = "/v1/orgs/" + org + "/policy-impact";
        Http.Response tooLong = http.send("POST", path, owner, "application/json",
                "{\"since\":\"2026-01-01T00:00:00Z\",\"until\":\"2026-01-09T00:00:00Z\",\"ceiling\":[]}");
        assertThat(problem(tooLong, 400)).isEqualTo("validation_failed");
        assertThat(tooLong.raw()).contains("window-too-long", "longer than 7 days");
        Http.Response bad = http.send("POST", path, owner, "application/json", "{\"since\":\"2026-01-01T00:00:00Z\","
                + "\"until\":\"2026-01-02T00:00:00Z\",\"policies\":[{\"name\":\"x\",\"allowedDomains\":"
                + "[{\"pattern\":\"a.com\",\"verdict\":\"maybe\"}]}]}");
        assertThat(problem(bad, 400)).isEqualTo("validation_failed");
        assertThat(bad.raw()).contains("/policies/0/allowedDomains/0/verdict");
        Http.Response unknown = http.send("POST", path, owner, "application/json", "{\"since\":\"2026-01-01T00:00:00Z\","
                + "\"until\":\"2026-01-02T00:00:00Z\",\"policies\":[{\"name\":\"nobody-has-this\"}]}");
        assertThat(unknown.raw()).contains("unknown-policy", "nobody-has-this");
        Http.Response notJson = http.send("POST", path, owner, "application/json", "{");
        assertThat(problem(notJson, 400)).isEqualTo("malformed_json");
    }

    private JsonNode impact(String scope, String token, Instant since, String candidate) throws Exception {
        String body = "{\"since\":\"" + since + "\",\"policies\":[" + candidate + "]}";
        Http.Response r = http.send("POST", scope + "/policy-impact", token, "application/json", body);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return JSON.readTree(r.raw());
    }

    private String curl(String sandbox, String url) throws Exception {
        return SandboxTraffic.curl(provisioner, sandbox, url);
    }
}
