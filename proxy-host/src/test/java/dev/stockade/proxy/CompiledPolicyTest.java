package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxy over the real compiled decision program: policy files read, resolved, compiled and
 * hot-reloaded, with a caller fence resolved from the kernel.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CompiledPolicyTest {
    @TempDir
    static Path dir;
    static Origins origins;
    static ProxyServer proxy;
    static PolicySource source;
    static Path policyFile;
    static final AuditCollector audit = new AuditCollector();
    static final ByteArrayOutputStream log = new ByteArrayOutputStream();

    static String policy(String plainVerdict) {
        return """
                name: agent
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: api.test
                    verdict: allow
                    transport: upstream
                    rules:
                      - method: GET
                        path: /repos/**
                  - pattern: fenced.test
                    verdict: allow
                    transport: upstream
                    binaries: [/usr/bin/curl]
                  - pattern: plain.test
                    verdict: %s
                    transport: upstream
                  - pattern: gql.test
                    verdict: allow
                    transport: upstream
                    rules:
                      - method: POST
                        path: /graphql
                        graphql:
                          operationType: query
                          fields: [viewer]
                """.formatted(plainVerdict);
    }

    @BeforeAll
    static void start() throws Exception {
        origins = new Origins(dir, "api.test", "fenced.test", "gql.test");
        Path policies = Files.createDirectories(dir.resolve("policies"));
        policyFile = policies.resolve("agent.yaml");
        Files.writeString(policyFile, policy("allow"));
        source = PolicySource.load(List.of(policies), List.of(), new PrintStream(log, true, StandardCharsets.UTF_8));
        source.watch();
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).allowLoopbackOriginsUnsafe(true)
                .extraTrustPem(origins.originCaPem).resolve("api.test", "127.0.0.1")
                .resolve("plain.test", "127.0.0.1").resolve("fenced.test", "127.0.0.1").resolve("gql.test", "127.0.0.1").build();
        proxy = ProxyServer.start(config, source, audit, CredentialStore.empty());
    }

    @AfterAll
    static void stop() {
        proxy.close();
        source.close();
        origins.close();
    }

    static String curl(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("curl", "-sS", "--max-time", "30", "-x",
                "http://127.0.0.1:" + proxy.port()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(40, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    String plainGet(String path) throws Exception {
        return RawHttp.exchange(proxy.port(), "GET http://plain.test:" + origins.plainPort() + path
                + " HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\nConnection: close\r\n\r\n");
    }

    @Test
    @Order(1)
    void interceptedRequestsAreDecidedByTheCompiledRules() throws Exception {
        String ok = curl("--cacert", proxy.caCertificate().toString(),
                "https://api.test:" + origins.tlsPort() + "/repos/acme/app");
        assertThat(ok).startsWith("GET /repos/acme/app\n");
        String no = curl("--cacert", proxy.caCertificate().toString(), "-i",
                "https://api.test:" + origins.tlsPort() + "/admin");
        assertThat(no).contains("403").contains("X-Stockade-Deny: no-rule-matched; policy=agent; entry=0");
        String post = curl("--cacert", proxy.caCertificate().toString(), "-o", "/dev/null", "-w", "%{http_code}",
                "-d", "x=1", "https://api.test:" + origins.tlsPort() + "/repos/acme/app");
        assertThat(post).isEqualTo("403");
    }

    @Test
    @Order(2)
    void graphqlFencedRequestsAreJudgedByTheProgramInsideTheTunnel() throws Exception {
        // the body travels to the decision; the program (not the proxy) judges the operation
        String url = "https://gql.test:" + origins.tlsPort() + "/graphql";
        String mutation = curl("--cacert", proxy.caCertificate().toString(), "-i", "-H", "Content-Type: application/json",
                "--data-binary", "{\"query\":\"mutation { deleteRepository(id: 1) { id } }\"}", url);
        assertThat(mutation).contains("403").containsPattern("X-Stockade-Deny: graphql-[a-z-]+; policy=agent; entry=3");
        String get = curl("--cacert", proxy.caCertificate().toString(), "-i", url + "?query=%7Bviewer%7Bid%7D%7D");
        assertThat(get).contains("403").contains("X-Stockade-Deny: no-rule-matched; policy=agent; entry=3");
        assertThat(origins.seen).noneMatch(s -> s.contains("/graphql"));
        String query = curl("--cacert", proxy.caCertificate().toString(), "-o", "/dev/null", "-w", "%{http_code}",
                "-H", "Content-Type: application/json", "--data-binary", "{\"query\":\"query { viewer { login } }\"}", url);
        assertThat(query).isEqualTo("200");
        assertThat(origins.seen).anyMatch(s -> s.contains("/graphql"));
    }

    @Test
    @Order(2)
    void aRequestAGraphqlFenceJudgedIsAuditedWithItsOperationsAndNoArgument() throws Exception {
        String url = "https://gql.test:" + origins.tlsPort() + "/graphql";
        String allowed = curl("--cacert", proxy.caCertificate().toString(), "-o", "/dev/null", "-w", "%{http_code}",
                "-H", "Content-Type: application/json", "--data-binary",
                "{\"query\":\"query Me($t: String) { me: viewer(token: $t) { login } }\","
                        + "\"variables\":{\"t\":\"ghp_secret42\"}}", url);
        assertThat(allowed).isEqualTo("200");
        String denied = curl("--cacert", proxy.caCertificate().toString(), "-o", "/dev/null", "-w", "%{http_code}",
                "-H", "Content-Type: application/json", "--data-binary",
                "[{\"query\":\"{ viewer { id } }\"},{\"query\":\"mutation Drop { deleteRepository(id: \\\"R_1\\\") { id } }\"}]",
                url);
        assertThat(denied).isEqualTo("403");
        AuditEvent allow = audit.await(e -> "gql.test".equals(e.host()) && e.graphql() != null
                && "allow".equals(e.verdict()) && "Me".equals(e.graphql().operations().get(0).name()),
                Duration.ofSeconds(30));
        assertThat(allow.graphql().toJson()).isEqualTo("{\"operations\":[{\"element\":0,\"type\":\"query\","
                + "\"name\":\"Me\",\"fields\":[\"viewer\"]}],\"truncated\":false}");
        AuditEvent deny = audit.await(e -> "gql.test".equals(e.host()) && e.graphql() != null
                && e.reason() == EgressReason.GRAPHQL_OPERATION_DENIED && e.graphql().operations().size() == 2,
                Duration.ofSeconds(30));
        assertThat(deny.graphql().toJson()).isEqualTo("{\"operations\":[{\"element\":0,\"type\":\"query\","
                + "\"name\":null,\"fields\":[\"viewer\"]},{\"element\":1,\"type\":\"mutation\",\"name\":\"Drop\","
                + "\"fields\":[\"deleteRepository\"]}],\"truncated\":false}");
        // the canonical line carries the summary and reads back with it; never an argument or a variable
        assertThat(AuditEvent.fromJson(new com.fasterxml.jackson.databind.ObjectMapper().readTree(deny.toJson())))
                .isEqualTo(deny);
        assertThat(allow.toJson() + deny.toJson()).doesNotContain("ghp_secret42", "R_1", "token", "login");
        // a request no graphql rule judged carries none
        assertThat(audit.all()).filteredOn(e -> "api.test".equals(e.host())).isNotEmpty()
                .allSatisfy(e -> assertThat(e.graphql()).isNull());
    }

    @Test
    @Order(2)
    void callerFenceAdmitsTheListedBinaryOnly() throws Exception {
        // curl is /usr/bin/curl and listed; the JVM's own socket is not
        String byCurl = curl("-k", "-o", "/dev/null", "-w", "%{http_code}", "https://fenced.test:" + origins.tlsPort() + "/");
        assertThat(byCurl).isEqualTo("200");
        String byJava = RawHttp.exchange(proxy.port(), "CONNECT fenced.test:" + origins.tlsPort()
                + " HTTP/1.1\r\nHost: fenced.test\r\n\r\n");
        assertThat(byJava).startsWith("HTTP/1.1 403").contains("caller-not-listed");
    }

    @Test
    @Order(2)
    void anOriginWhoseCertificateDoesNotNameTheHostIsRefused() throws Exception {
        // plain.test is allowed upstream, but the origin's certificate names only api.test and fenced.test
        String out = curl("--cacert", proxy.caCertificate().toString(), "-o", "/dev/null", "-w", "%{http_code}",
                "https://plain.test:" + origins.tlsPort() + "/");
        assertThat(out).isEqualTo("502");
    }

    @Test
    @Order(4)
    void policyChangesAreReloadedAndAnInvalidPolicyDeniesAll() throws Exception {
        assertThat(plainGet("/one")).startsWith("HTTP/1.1 200");

        long gen = source.lastLoad().generation();
        Files.writeString(policyFile, policy("deny"));
        awaitValidLoadAfter(gen);
        assertThat(plainGet("/two")).startsWith("HTTP/1.1 403").contains("entry-deny");

        gen = source.lastLoad().generation();
        Files.writeString(policyFile, policy("maybe"));
        // A late second event of the previous write may reload the valid "deny" file first: wait for the bad one.
        PolicySource.Load bad = awaitLoadAfter(gen, false);
        assertThat(bad.valid()).isFalse();
        assertThat(bad.problems()).isNotEmpty();
        assertThat(plainGet("/three")).startsWith("HTTP/1.1 403").contains("policy-unavailable");
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("POLICY INVALID, DENYING ALL EGRESS");

        gen = source.lastLoad().generation();
        Files.writeString(policyFile, policy("allow"));
        awaitValidLoadAfter(gen);
        assertThat(plainGet("/four")).startsWith("HTTP/1.1 200");
    }

    /** A write may reach the watcher as several events: wait until a valid load follows {@code gen}. */
    private static void awaitValidLoadAfter(long gen) throws InterruptedException {
        PolicySource.Load l = awaitLoadAfter(gen, true);
        assertThat(l.valid()).as("problems: %s", l.problems()).isTrue();
    }

    /** The first load after {@code gen} whose validity is {@code valid}, or the last one seen within 30 s. */
    private static PolicySource.Load awaitLoadAfter(long gen, boolean valid) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        PolicySource.Load l = source.awaitLoadAfter(gen, 10_000);
        while (l.valid() != valid && System.nanoTime() < deadline) {
            l = source.awaitLoadAfter(l.generation(), 10_000);
        }
        return l;
    }
}
