package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sandbox records through the API: bad input refused with problems and nothing changed, the embedded-policy merge of
 * the spec's table, revisions with promote and rollback, states a transition is refused in.
 */
@MicronautTest(transactional = false)
class SandboxApiTest extends PlatformTest {

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("sandbox.k8s.cpu", "2", "sandbox.k8s.memory", "4Gi");
    }

    private String base(String owner) {
        String org = createOrg(owner, "sbx-" + System.nanoTime());
        return "/v1/projects/" + createProject(owner, org, "p") + "/sandboxes";
    }

    @Test
    void badSandboxesAreRefusedWithAProblemPerFieldAndNothingIsCreated() {
        String owner = ownerToken();
        String base = base(owner);
        record Case(String yaml, String pointer, String code) {
        }
        List<Case> cases = List.of(
                new Case("name: a\nmemory: 1Gi\n", "/cpu", "required"),
                new Case("name: a\ncpu: 1\n", "/memory", "required"),
                new Case("name: a\ncpu: 3\nmemory: 1Gi\n", "/cpu", "above-ceiling"),
                new Case("name: a\ncpu: 2500m\nmemory: 1Gi\n", "/cpu", "above-ceiling"),
                new Case("name: a\ncpu: 1\nmemory: 5Gi\n", "/memory", "above-ceiling"),
                new Case("name: a\ncpu: lots\nmemory: 1Gi\n", "/cpu", "quantity"),
                new Case("name: a\ncpu: 1\nmemory: 1Gi\nautoStop: 30 minutes\n", "/autoStop", "duration"),
                new Case("name: a\ncpu: 1\nmemory: 1Gi\nautoDelete: 0d\n", "/autoDelete", "duration"),
                new Case("name: a\ncpu: 1\nmemory: 1Gi\nports: [{port: 1}, {port: 2}, {port: 3}, {port: 4},"
                        + " {port: 5}]\n", "/ports", "too-many"),
                new Case("name: a\ncpu: 1\nmemory: 1Gi\nports: [{port: 80}, {port: 80}]\n", "/ports/1/port", "port"),
                new Case("name: a\ncpu: 1\nmemory: 1Gi\ncolour: red\n", "/colour", "unknown-key"),
                new Case("name: Bad_Name\ncpu: 1\nmemory: 1Gi\n", "/name", "pattern"),
                new Case("name: a\ncpu: 1\nmemory: 1Gi\npolicies: [" + java.util.UUID.randomUUID() + "]\n",
                        "/policies/0", "unknown-policy"),
                new Case("name: a\ncpu: 1\nmemory: 1Gi\npolicy:\n  name: p\n  allowedDomains:\n    - pattern: 7\n",
                        "/policy/allowedDomains/0/pattern", null));
        for (Case c : cases) {
            Http.Response r = http.send("POST", base, owner, "application/yaml", c.yaml());
            assertThat(problem(r, 400)).as(c.yaml()).isEqualTo("validation_failed");
            JsonNode errors = r.body().path("errors");
            assertThat(errors.toString()).as(c.yaml()).contains("\"pointer\":\"" + c.pointer() + "\"");
            if (c.code() != null) {
                assertThat(errors.toString()).as(c.yaml()).contains("\"code\":\"" + c.code() + "\"");
            }
            if (!"unknown-policy".equals(c.code())) { // references are checked after reading, without positions
                assertThat(errors.get(0).has("line")).as(c.yaml() + " " + errors).isTrue();
            }
        }
        assertThat(problem(http.send("POST", base, owner, "application/json", "{\"name\": \"a\","), 400))
                .isEqualTo("validation_failed");
        assertThat(http.get(base, owner).body().path("items")).isEmpty();
    }

    @Test
    void updatesMergeTheEmbeddedPolicyAsTheSpecSaysAndRevisionsPromoteAndRollBack() {
        String owner = ownerToken();
        String base = base(owner);
        Http.Response created = http.post(base, owner, Map.of("name", "rev", "cpu", "1", "memory", "256Mi",
                "policy", Map.of("name", "embedded", "allowedDomains", List.of(Map.of("pattern", "a.example",
                        "verdict", "allow")), "piiMasking", Map.of("types", List.of("EMAIL")))));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String path = base + "/" + created.text("id");
        http.post(path + "/stop", owner, null);

        // a key replaces whole; an omitted key keeps; piiMasking null clears its block
        Http.Response patched = http.patch(path, owner, Map.of("policy", Map.of("name", "embedded",
                "allowedDomains", List.of(Map.of("pattern", "b.example", "verdict", "allow")))));
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
        assertThat(patched.body().path("policy").path("allowedDomains").toString()).contains("b.example")
                .doesNotContain("a.example");
        assertThat(patched.body().path("policy").has("piiMasking")).isTrue();
        assertThat(patched.body().path("activeRevision").asInt()).isEqualTo(2);
        java.util.Map<String, Object> clear = new java.util.HashMap<>();
        clear.put("name", "embedded");
        clear.put("piiMasking", null);
        assertThat(http.patch(path, owner, Map.of("policy", clear)).body().path("policy").has("piiMasking")).isFalse();
        // name is required on every update; nothing changes when it is missing
        Http.Response nameless = http.patch(path, owner, Map.of("policy", Map.of("allowedDomains", List.of())));
        assertThat(problem(nameless, 400)).isEqualTo("validation_failed");
        assertThat(http.get(path, owner).body().path("activeRevision").asInt()).isEqualTo(3);
        // timers change without a revision
        assertThat(http.patch(path, owner, Map.of("autoStop", "45m")).body().path("activeRevision").asInt()).isEqualTo(3);
        // policy null drops the embedded policy
        java.util.Map<String, Object> drop = new java.util.HashMap<>();
        drop.put("policy", null);
        Http.Response dropped = http.patch(path, owner, drop);
        assertThat(dropped.body().path("policy").isNull()).as(dropped.raw()).isTrue();
        assertThat(dropped.body().path("autoStop").asText()).isEqualTo("45m");

        JsonNode revisions = http.get(path + "/revisions", owner).body().path("items");
        assertThat(revisions).hasSize(4);
        assertThat(revisions.get(0).path("active").asBoolean()).isTrue();
        // promote an old revision on the stopped sandbox, then roll back to the one before
        Http.Response promoted = http.post(path + "/revisions/1/promote", owner, null);
        assertThat(promoted.status()).as(promoted.raw()).isEqualTo(200);
        assertThat(promoted.body().path("activeRevision").asInt()).isEqualTo(1);
        assertThat(promoted.body().path("policy").path("allowedDomains").toString()).contains("a.example");
        assertThat(http.post(path + "/rollback", owner, null).body().path("activeRevision").asInt()).isEqualTo(4);
        assertThat(problem(http.post(path + "/revisions/9/promote", owner, null), 404)).isEqualTo("not_found");

        // start is refused on a sandbox that is not stopped or failed
        JsonNode effective = http.get(path + "/effective-policy", owner).body();
        assertThat(effective.path("revision").asInt()).isEqualTo(4);
        assertThat(effective.path("current").has("domains")).isTrue();
    }

    @Test
    void aRunningSandboxCannotBeStartedAndStopIsAcceptedWhileCreating() {
        String owner = ownerToken();
        String base = base(owner);
        Http.Response created = http.post(base, owner, Map.of("name", "quick", "cpu", "1", "memory", "128Mi"));
        String path = base + "/" + created.text("id");
        // stop is accepted in every state, creating and starting included
        assertThat(http.post(path + "/stop", owner, null).status()).isEqualTo(202);
        assertThat(http.post(path + "/stop", owner, null).status()).isEqualTo(202);
        Http.Response started = http.post(path + "/start", owner, null);
        assertThat(started.status()).as(started.raw()).isEqualTo(202);
        assertThat(problem(http.post(path + "/start", owner, null), 409)).isEqualTo("conflict");
        Http.Response duplicate = http.post(base, owner, Map.of("name", "quick", "cpu", "1", "memory", "128Mi"));
        assertThat(problem(duplicate, 409)).isEqualTo("conflict");
        assertThat(http.delete(path, owner).status()).isEqualTo(204);
    }
}
