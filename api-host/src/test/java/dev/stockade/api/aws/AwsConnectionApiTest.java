package dev.stockade.api.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * AWS connections through the REST API: validation with a problem per field, the generated external ID, the audit
 * trail (which never holds the external ID or a served secret), and the container credentials endpoint serving a real
 * sandbox's assumed-role credentials from an STS double, cached, and refused after a halt or for a connection its
 * policy does not name.
 */
@MicronautTest(transactional = false)
class AwsConnectionApiTest extends PlatformTest {
    private static final String ROLE = "arn:aws:iam::123456789012:role/agents";
    private StsDouble sts;

    @Inject
    Sql jdbc;

    @Inject
    SecretBox box;

    @Override
    protected Map<String, String> extraProperties() {
        try {
            sts = new StsDouble("AKIAPLATFORM", "platform-secret", ROLE, "ext-for-prod");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return Map.of("aws.allow-loopback-unsafe", "true", "aws.allow-plain-http", "true",
                "aws.test-source-key-id", "AKIAPLATFORM", "aws.test-source-secret", "platform-secret");
    }

    @AfterAll
    void stopSts() {
        sts.close();
    }

    private String project(String owner) {
        return createProject(owner, createOrg(owner, "aws-" + UUID.randomUUID()), "p");
    }

    @Test
    void aConnectionGetsItsDefaultsAndAGeneratedExternalIdWhichTheTrailNeverHolds() {
        String owner = ownerToken();
        String project = project(owner);
        Http.Response c = http.post("/v1/projects/" + project + "/aws-connections", owner,
                Map.of("name", "prod", "roleArn", ROLE, "region", "eu-west-1"));
        assertThat(c.status()).as(c.raw()).isEqualTo(201);
        assertThat(c.text("externalId")).matches("stockade-[0-9a-f]{32}");
        assertThat(c.body().get("sessionDurationSeconds").asInt()).isEqualTo(3600);
        assertThat(c.body().get("stsEndpoint").isNull()).isTrue();
        Http.Response again = http.post("/v1/projects/" + project + "/aws-connections", owner,
                Map.of("name", "prod", "roleArn", ROLE, "region", "eu-west-1"));
        assertThat(problem(again, 409)).isEqualTo("conflict");
        Http.Response patched = http.patch("/v1/aws-connections/" + c.text("id"), owner,
                Map.of("sessionDurationSeconds", 7200, "externalId", "chosen-by-me"));
        assertThat(patched.body().get("sessionDurationSeconds").asInt()).isEqualTo(7200);
        assertThat(patched.text("externalId")).isEqualTo("chosen-by-me");
        Http.Response list = http.get("/v1/projects/" + project + "/aws-connections", owner);
        assertThat(list.body().get("items")).hasSize(1);
        assertThat(http.delete("/v1/aws-connections/" + c.text("id"), owner).status()).isEqualTo(204);
        assertThat(http.get("/v1/aws-connections/" + c.text("id"), owner).status()).isEqualTo(404);
        Http.Response audit = http.get("/v1/orgs/" + c.text("orgId") + "/audit-trail", owner);
        assertThat(audit.raw()).contains("aws-connection").contains(ROLE).doesNotContain(c.text("externalId"))
                .doesNotContain("chosen-by-me");
    }

    @Test
    void badFieldsAreRefusedWithAProblemNamingTheField() {
        String owner = ownerToken();
        String base = "/v1/projects/" + project(owner) + "/aws-connections";
        record Case(Map<String, Object> body, String pointer) {
        }
        for (Case k : java.util.List.of(
                new Case(Map.of("name", "a", "roleArn", "arn:aws:iam::123456789012:user/bob", "region", "us-east-1"),
                        "/roleArn"),
                new Case(Map.of("name", "a", "roleArn", "arn:aws:iam::12345:role/r", "region", "us-east-1"),
                        "/roleArn"),
                new Case(Map.of("name", "a", "roleArn", ROLE, "region", "mars"), "/region"),
                new Case(Map.of("name", "a", "roleArn", ROLE, "region", "us-east-1", "sessionDurationSeconds", 899),
                        "/sessionDurationSeconds"),
                new Case(Map.of("name", "a", "roleArn", ROLE, "region", "us-east-1", "sessionDurationSeconds", 43201),
                        "/sessionDurationSeconds"),
                new Case(Map.of("name", "a", "roleArn", ROLE, "region", "us-east-1", "externalId", "x"),
                        "/externalId"),
                new Case(Map.of("name", "a", "roleArn", ROLE, "region", "us-east-1", "stsEndpoint", "ftp://x"),
                        "/stsEndpoint"),
                new Case(Map.of("name", "a", "roleArn", ROLE, "region", "us-east-1", "stsEndpoint",
                        "http://169.254.169.254"), "/stsEndpoint"))) {
            Http.Response r = http.post(base, owner, k.body());
            assertThat(r.status()).as(r.raw()).isEqualTo(400);
            assertThat(r.raw()).as(k.body().toString()).contains("\"pointer\":\"" + k.pointer() + "\"");
        }
        assertThat(http.get(base, owner).body().get("items")).isEmpty();
    }

    @Test
    void aSandboxGetsCredentialsForTheConnectionItsPolicyNamesUntilItsOrganizationIsHalted() {
        String owner = ownerToken();
        String project = project(owner);
        String prod = "/v1/projects/" + project + "/aws-connections";
        assertThat(http.post(prod, owner, Map.of("name", "prod", "roleArn", ROLE, "region", "eu-west-1",
                "externalId", "ext-for-prod", "sessionDurationSeconds", 900, "stsEndpoint", sts.url())).status())
                .isEqualTo(201);
        assertThat(http.post(prod, owner, Map.of("name", "other", "roleArn", ROLE, "region", "eu-west-1",
                "externalId", "ext-for-prod", "stsEndpoint", sts.url())).status()).isEqualTo(201);
        Http.Response made = http.send("POST", "/v1/projects/" + project + "/sandboxes", owner, "application/yaml",
                "name: agent\ncpu: 1\nmemory: 1Gi\npolicy:\n  name: p\n  integrations:\n"
                        + "    - type: aws-connection\n      name: prod\n");
        assertThat(made.status()).as(made.raw()).isEqualTo(201);
        UUID id = UUID.fromString(made.text("id"));
        String sealed = jdbc.first("SELECT token_sealed FROM sandboxes WHERE id = ?", java.util.List.of(id),
                rs -> rs.getString(1)).orElseThrow();
        String token = box.open(sealed, "sandbox-token:" + id);
        String org = made.text("orgId");

        int before = sts.assumed.size();
        Http.Response served = http.get("/v1/sandbox/aws-credentials/prod", token);
        assertThat(served.status()).as(served.raw()).isEqualTo(200);
        StsDouble.Assumed seen = sts.assumed.get(before);
        assertThat(seen.sessionName()).isEqualTo("stockade-" + id);
        assertThat(seen.durationSeconds()).isEqualTo(900);
        JsonNode body = served.body();
        assertThat(body.get("AccessKeyId").asText()).isEqualTo(seen.accessKeyId());
        assertThat(body.get("SecretAccessKey").asText()).isEqualTo("secret-of-" + seen.accessKeyId());
        assertThat(body.get("Token").asText()).isEqualTo("session-of-" + seen.accessKeyId());
        assertThat(Instant.parse(body.get("Expiration").asText())).isAfter(Instant.now().plusSeconds(800));
        // 900 s credentials are inside the 5-minute refresh window only after 10 minutes: now they are reused
        assertThat(http.get("/v1/sandbox/aws-credentials/prod", token).text("AccessKeyId"))
                .isEqualTo(seen.accessKeyId());
        assertThat(sts.assumed).hasSize(before + 1);

        Http.Response unnamed = http.get("/v1/sandbox/aws-credentials/other", token);
        assertThat(problem(unnamed, 403)).isEqualTo("forbidden");

        assertThat(http.post("/v1/orgs/" + org + "/halt", owner, null).status()).isEqualTo(200);
        Http.Response halted = http.get("/v1/sandbox/aws-credentials/prod", token);
        assertThat(problem(halted, 403)).isEqualTo("halted");
        Http.Response audit = http.get("/v1/orgs/" + org + "/audit-trail", owner);
        assertThat(audit.raw()).contains("assume-role").contains("not-named").contains("halted")
                .doesNotContain("secret-of-").doesNotContain("session-of-").doesNotContain("ext-for-prod");
    }
}
