package dev.stockade.api.kernel.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;

/**
 * One organization with a real instance of everything a route can name (policies, bindings, credentials, a
 * connector and its credential, an invitation, a cluster, limits, tokens of every kind), and a token for every kind
 * of caller of {@link AuthorizationMatrixTest}. Ids that can name nothing here (sandboxes need a provisioner run,
 * specs a changed upstream) are random, and the table expects the handler's own answer about them.
 */
final class MatrixFixture {
    /** The ids a path or body names, and each caller's token (null: no token). */
    record Fixture(Map<String, String> ids, Map<AuthorizationMatrixTest.Who, String> tokens) {
    }

    private final Http http;
    private final String owner;
    private final BiFunction<String, Map<String, Object>, String> idp;
    private final Map<String, String> people = new HashMap<>();
    private String proxyToken;

    MatrixFixture(Http http, String owner, BiFunction<String, Map<String, Object>, String> idp) {
        this.http = http;
        this.owner = owner;
        this.idp = idp;
    }

    private String person(String subject) {
        return idp.apply(subject, Map.of("email", subject + "@example.com", "email_verified", true));
    }

    private String userId(String subject) {
        return people.computeIfAbsent(subject, s -> http.get("/v1/auth/me", person(s)).text("id"));
    }

    private Http.Response created(String path, Object body) {
        Http.Response r = http.post(path, owner, body);
        assertThat(r.status()).as("POST %s: %s", path, r.raw()).isEqualTo(201);
        return r;
    }

    private void put(String path, Object body, int status) {
        Http.Response r = http.put(path, owner, body);
        assertThat(r.status()).as("PUT %s: %s", path, r.raw()).isEqualTo(status);
    }

    /** The callers' tokens and their organization, as {@link #create} makes them for {@link #ids}. */
    private record Callers(String org, String project, Map<AuthorizationMatrixTest.Who, String> tokens,
                           String plainId, String projectAdminId, String targetId) {
    }

    Fixture create() {
        Callers c = callers();
        return new Fixture(ids(c), c.tokens());
    }

    /** An organization and a project, a token for every kind of caller, and a person and token to act on. */
    private Callers callers() {
        String org = created("/v1/orgs", Map.of("name", "matrix-" + UUID.randomUUID())).text("id");
        String project = created("/v1/orgs/" + org + "/projects", Map.of("name", "p")).text("id");
        String o = "/v1/orgs/" + org;
        String p = "/v1/projects/" + project;
        put(o + "/members/" + userId("admin"), Map.of("role", "ADMIN"), 204);
        put(o + "/members/" + userId("member"), Map.of("role", "MEMBER"), 204);
        put(o + "/members/" + userId("target"), Map.of("role", "MEMBER"), 204);
        put(p + "/members/users/" + userId("target"), Map.of("role", "MEMBER"), 204);
        userId("stranger");
        Http.Response projectAdmin = created(o + "/api-tokens", Map.of("name", "pa"));
        put(p + "/members/api-tokens/" + projectAdmin.text("id"), Map.of("role", "ADMIN"), 204);
        Http.Response plain = created(o + "/api-tokens", Map.of("name", "plain"));
        Http.Response target = created(o + "/api-tokens", Map.of("name", "target"));
        put(p + "/members/api-tokens/" + target.text("id"), Map.of("role", "MEMBER"), 204);
        String foreignOrg = created("/v1/orgs", Map.of("name", "foreign-" + UUID.randomUUID())).text("id");
        String sandbox = created(p + "/sandbox-tokens", Map.of("name", "sbx")).text("token");
        Http.Response cluster = http.post("/v1/auth/cluster-token", sandbox, null);
        assertThat(cluster.status()).as(cluster.raw()).isEqualTo(200);
        if (proxyToken == null) {
            proxyToken = created("/v1/proxy-tokens", Map.of("name", "matrix")).text("token");
        }
        Map<AuthorizationMatrixTest.Who, String> tokens = new EnumMap<>(AuthorizationMatrixTest.Who.class);
        tokens.put(AuthorizationMatrixTest.Who.OWNER, owner);
        tokens.put(AuthorizationMatrixTest.Who.ORG_ADMIN, person("admin"));
        tokens.put(AuthorizationMatrixTest.Who.ORG_MEMBER, person("member"));
        tokens.put(AuthorizationMatrixTest.Who.STRANGER, person("stranger"));
        tokens.put(AuthorizationMatrixTest.Who.PROJECT_ADMIN_TOKEN, projectAdmin.text("token"));
        tokens.put(AuthorizationMatrixTest.Who.PLAIN_TOKEN, plain.text("token"));
        tokens.put(AuthorizationMatrixTest.Who.FOREIGN_TOKEN,
                created("/v1/orgs/" + foreignOrg + "/api-tokens", Map.of("name", "f")).text("token"));
        tokens.put(AuthorizationMatrixTest.Who.SANDBOX, sandbox);
        tokens.put(AuthorizationMatrixTest.Who.CLUSTER, cluster.text("token"));
        tokens.put(AuthorizationMatrixTest.Who.PROXY, proxyToken);
        return new Callers(org, project, tokens, plain.text("id"), projectAdmin.text("id"), target.text("id"));
    }

    /** A real instance of everything a path names, and the random ids that name nothing. */
    private Map<String, String> ids(Callers c) {
        String o = "/v1/orgs/" + c.org();
        String p = "/v1/projects/" + c.project();
        String orgPolicy = created(o + "/policies", Map.of("name", "org-policy")).text("id");
        String projectPolicy = created(p + "/policies", Map.of("name", "project-policy")).text("id");
        String serverId = created(p + "/mcp-servers", Map.of("name", "c", "url", "http://127.0.0.1:9/mcp")).text("id");
        put(o + "/spending-limits/org", Map.of("amountUsd", "100"), 200);
        put(o + "/spending-limits/projects/" + c.project(), Map.of("amountUsd", "50"), 200);
        Map<String, String> ids = new HashMap<>();
        ids.putAll(Map.of("orgId", c.org(), "projectId", c.project(), "userId", userId("target"),
                "tokenId", c.targetId(), "apiTokenId", c.targetId(), "serverId", serverId,
                "orgPolicyId", orgPolicy, "projectPolicyId", projectPolicy, "connectorCredentialName", "cc"));
        ids.putAll(Map.of(
                "orgBindingId", created(o + "/policy-bindings", Map.of("policyId", orgPolicy, "apiTokenId",
                        c.plainId())).text("id"),
                "projectBindingId", created(p + "/policy-bindings", Map.of("policyId", projectPolicy, "apiTokenId",
                        c.projectAdminId())).text("id"),
                "credentialId", created(p + "/credentials", Map.of("name", "cred", "secret", "s3cret-value",
                        "domains", List.of("api.example.com"))).text("id"),
                "connectorCredentialId", created(p + "/mcp-servers/" + serverId + "/credentials",
                        Map.of("name", "cc", "secret", "s3cret-value")).text("id"),
                "invitationId", created(o + "/invitations", Map.of("email", "invited-" + UUID.randomUUID()
                        + "@example.com", "role", "MEMBER")).text("id"),
                "clusterId", created(p + "/clusters", Map.of("name", "c")).text("id"),
                "sandboxTokenId", created(p + "/sandbox-tokens", Map.of("name", "revoked")).text("id"),
                "proxyTokenId", created("/v1/proxy-tokens", Map.of("name", "revoked")).text("id")));
        ids.putAll(Map.of("sandboxId", UUID.randomUUID().toString(), "specId", UUID.randomUUID().toString(),
                "requestId", UUID.randomUUID().toString(), "sessionId", UUID.randomUUID().toString(),
                "missingInvitationId", UUID.randomUUID().toString(), "slug", "not-found", "path",
                "api/v1/namespaces", "revision", "1", "entryName",
                "absent-" + UUID.randomUUID().toString().substring(0, 8), "llmPath", "openai/v1/chat/completions"));
        ids.put("inferenceSource", "openai");
        ids.put("connectionId", created(p + "/aws-connections", Map.of("name", "aws-a", "roleArn",
                "arn:aws:iam::123456789012:role/agents", "region", "us-east-1")).text("id"));
        ids.put("awsConnectionName", "aws-a");
        return ids;
    }
}
