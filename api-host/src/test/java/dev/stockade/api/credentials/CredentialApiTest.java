package dev.stockade.api.credentials;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import dev.stockade.api.enforcement.CredentialMaterials;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.TestDatabase;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Credentials: created, listed, rotated and deleted through the API; the secret sealed at rest and returned by no
 * route, log line, audit entry, event, problem body or exception message; only the proxy feed's reveal opens it.
 */
@MicronautTest(transactional = false)
class CredentialApiTest extends PlatformTest {
    @Inject
    CredentialMaterials materials;

    @Test
    void theSecretIsSealedAndNeverLeavesThroughAnyRouteLogAuditEventOrProblem() throws Exception {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(logs);
        String secret = "s3cr3t-" + UUID.randomUUID();
        String rotated = "r0tat3d-" + UUID.randomUUID();
        List<Http.Response> responses = new ArrayList<>();
        String owner = ownerToken();
        String org = createOrg(owner, "creds");
        String project = createProject(owner, org, "app");
        String base = "/v1/projects/" + project + "/credentials";

        Http.Response created = http.post(base, owner, Map.of("name", "github", "secret", secret,
                "domains", List.of("api.github.com", "uploads.github.com:8443"),
                "headerFormat", "Authorization: Bearer {secret}"));
        responses.add(created);
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String id = created.text("id");
        responses.add(http.get(base, owner));
        responses.add(http.get(base + "/" + id, owner));
        // bad input of every kind, with the secret in the body: problems name fields, never values
        responses.add(http.post(base, owner, Map.of("name", "github", "secret", secret, "domains", List.of("a.b"))));
        responses.add(http.post(base, owner, Map.of("name", "x", "secret", secret + "\n", "domains", List.of("a.b"))));
        responses.add(http.post(base, owner, Map.of("name", "y", "secret", secret, "domains", List.of("*"))));
        responses.add(http.post(base, owner, Map.of("name", "z", "secret", secret, "domains", List.of("a..b"),
                "headerFormat", "Bearer " + secret)));
        responses.add(http.post(base, owner, Map.of("name", "w", "secret", secret, "domains", List.of("a.b"),
                "unknown", secret)));
        // the policies' host:port grammar: no leading zero; a bracketed IPv6 literal with a port is a domain
        responses.add(http.post(base, owner, Map.of("name", "p", "secret", secret, "domains", List.of("a.b:0443"))));
        responses.add(http.post(base, owner, Map.of("name", "v6", "secret", secret, "domains",
                List.of("[2001:db8::1]:8443"))));
        responses.add(http.patch(base + "/" + id, owner, Map.of("secret", rotated)));
        responses.add(http.patch(base + "/" + id, owner, Map.of("name", "renamed", "secret", secret)));

        assertThat(responses.stream().map(Http.Response::status).toList())
                .containsExactly(201, 200, 200, 409, 400, 400, 400, 400, 400, 201, 200, 400);
        assertThat(responses.get(2).body().path("domains").toString()).contains("uploads.github.com:8443");
        for (Http.Response r : responses) {
            assertThat(r.raw()).doesNotContain(secret).doesNotContain(rotated).doesNotContain("r0tat3d");
        }
        assertThat(materials.reveal(List.of(UUID.fromString(id)))).singleElement()
                .satisfies(m -> {
                    assertThat(m.secret()).isEqualTo(rotated);
                    assertThat(m.headerFormat()).isEqualTo("Authorization: Bearer {secret}");
                    assertThat(m.toString()).doesNotContain(rotated);
                });

        assertThat(http.delete(base + "/" + id, owner).status()).isEqualTo(204);
        assertThat(problem(http.get(base + "/" + id, owner), 404)).isEqualTo("not_found");
        assertThat(materials.reveal(List.of(UUID.fromString(id)))).isEmpty();

        List<String> stored = databaseText(org);
        assertThat(stored).isNotEmpty().noneMatch(t -> t.contains(secret) || t.contains(rotated));
        for (ILoggingEvent e : logs.list) {
            String line = e.getFormattedMessage() + (e.getThrowableProxy() == null ? ""
                    : ThrowableProxyUtil.asString(e.getThrowableProxy()));
            assertThat(line).doesNotContain(secret).doesNotContain(rotated);
        }
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.toString().contains("/pg/")).toList()) {
                assertThat(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain(secret);
            }
        }
    }

    @Test
    void membersReadAndOnlyProjectAdminsWrite() {
        String owner = ownerToken();
        String org = createOrg(owner, "cred-roles");
        String project = createProject(owner, org, "app");
        Http.Response token = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "member"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + token.text("id"), owner, Map.of("role", "MEMBER"));
        String base = "/v1/projects/" + project + "/credentials";
        Map<String, Object> body = Map.of("name", "n", "secret", "x", "domains", List.of("example.com"));
        assertThat(problem(http.post(base, token.text("token"), body), 403)).isEqualTo("forbidden");
        assertThat(http.post(base, owner, body).status()).isEqualTo(201);
        assertThat(http.get(base, token.text("token")).body().path("items")).hasSize(1);
    }

    /** Every text column of the rows the scenario wrote: audit entries, events, credentials. */
    private List<String> databaseText(String org) throws Exception {
        String url = server.getApplicationContext().getProperty("datasources.default.url", String.class).orElseThrow();
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password())) {
            for (String q : List.of("SELECT details::text FROM audit_entries WHERE org_id = '" + org + "'",
                    "SELECT payload::text FROM events WHERE org_id = '" + org + "'",
                    "SELECT name || sealed_secret || array_to_string(domains, ',') FROM credentials")) {
                try (ResultSet rs = c.createStatement().executeQuery(q)) {
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                }
            }
        }
        return out;
    }
}
