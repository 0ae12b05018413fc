package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The forward proxy against real origins on loopback, driven by the JDK client, raw sockets and curl. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ForwardProxyTest {
    static final String SECRET = "s3cr3t-token-value-XYZ";
    static final UUID CRED_ID = UUID.fromString("6f1c2b7e-3f0a-4b4e-9d61-2b5c0c1a7e11");

    @TempDir
    static Path dir;
    static final UUID PORTLESS_ID = UUID.randomUUID();
    static Origins origins;
    static ProxyServer proxy;
    static final AuditCollector audit = new AuditCollector();
    static Path auditFile;
    static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        origins = new Origins(dir, "api.test");
        PolicySource decider = TestPolicies.compile(dir, "test-policy", """
                name: test-policy
                networkDefaultVerdict: deny
                credentials:
                  - credentialName: bound
                    envVarKey: BOUND_KEY
                allowedDomains:
                  - pattern: api.test
                    verdict: allow
                    transport: upstream
                    rules:
                      - method: GET
                        path: /**
                      - method: POST
                        path: /graphql
                  - pattern: plain.test
                    verdict: allow
                    transport: upstream
                    rules:
                      - method: GET
                        path: /**
                      - method: POST
                        path: /upload
                  - pattern: direct.test
                    verdict: allow
                    transport: direct
                  - pattern: other.test
                    verdict: allow
                    transport: upstream
                """);
        // bound to the origin's port: a domain without one means 443 only
        Credential cred = new Credential(CRED_ID, "gh", SECRET, List.of("api.test:" + origins.tlsPort()),
                "Authorization: Bearer {secret}");
        Credential bound = new Credential(UUID.randomUUID(), "bound", "bound-secret-777",
                List.of("api.test:" + origins.tlsPort()), "X-Api-Key: {secret}");
        Credential unported = new Credential(PORTLESS_ID, "portless", "portless-secret-555", List.of("api.test"),
                "Authorization: Bearer {secret}");
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).adminPort(0).maxBodyBytes(1_000_000)
                .allowLoopbackOriginsUnsafe(true).extraTrustPem(origins.originCaPem)
                .resolve("api.test", "127.0.0.1").resolve("plain.test", "127.0.0.1")
                .resolve("other.test", "127.0.0.1").build();
        auditFile = dir.resolve("audit.jsonl");
        AuditSink file = AuditSink.file(auditFile);
        AuditSink both = e -> {
            file.record(e);
            audit.record(e);
        };
        proxy = ProxyServer.start(config, decider, both, CredentialStore.of(List.of(cred, bound, unported)));
        client = HttpClient.newBuilder().proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", proxy.port())))
                .sslContext(trusting(proxy.caCertificate())).connectTimeout(Duration.ofSeconds(30)).build();
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
        if (origins != null) {
            origins.close();
        }
    }

    static SSLContext trusting(Path pem) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        try (InputStream in = new FileInputStream(pem.toFile())) {
            ks.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    static HttpResponse<String> get(String url, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static List<AuditEvent> auditFor(String host, String path) throws InterruptedException {
        audit.await(e -> host.equals(e.host()) && (path == null || path.equals(e.path())), Duration.ofSeconds(30));
        List<AuditEvent> out = new ArrayList<>();
        for (AuditEvent e : audit.all()) {
            if (host.equals(e.host()) && (path == null || path.equals(e.path()))) {
                out.add(e);
            }
        }
        return out;
    }

    // ---- plain HTTP ------------------------------------------------------------------------------------

    @Test
    void plainHttpAllowedReachesTheOrigin() throws Exception {
        HttpResponse<String> r = get("http://plain.test:" + origins.plainPort() + "/hello?x=1");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).startsWith("GET /hello?x=1\n").contains("host: plain.test:" + origins.plainPort());
        assertThat(r.body()).doesNotContain("proxy-");
        assertThat(auditFor("plain.test", "/hello")).singleElement().satisfies(e -> {
            assertThat(e.verdict()).isEqualTo("allow");
            assertThat(e.listener()).isEqualTo("http");
            assertThat(e.status()).isEqualTo(200);
            assertThat(e.reason()).isEqualTo(EgressReason.RULE_ALLOW);
            assertThat(e.bytesOut()).isEqualTo(r.body().getBytes(StandardCharsets.UTF_8).length);
        });
    }

    @Test
    void plainHttpToADeniedHostIsRefusedWithAnActionableDeny() throws Exception {
        HttpResponse<String> r = get("http://denied.test:" + origins.plainPort() + "/x");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("denied.test").contains("default-deny");
        assertThat(r.headers().firstValue("x-stockade-deny")).hasValue("default-deny; policy=-; entry=-1; rule=-1");
        assertThat(origins.seen).noneMatch(s -> s.contains("denied.test"));
    }

    @Test
    void plainHttpRequestRuleDenies() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://plain.test:" + origins.plainPort()
                + "/thing")).DELETE().timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.headers().firstValue("x-stockade-deny"))
                .hasValue("no-rule-matched; policy=test-policy; entry=1; rule=-1");
    }

    @Test
    void absoluteFormToADeniedHostWithAnAllowedHostHeaderIsRefused() throws Exception {
        String resp = RawHttp.exchange(proxy.port(), "GET http://denied.test:" + origins.plainPort()
                + "/ HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\nConnection: close\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 403");
        assertThat(origins.seen).noneMatch(s -> s.contains("denied.test"));
    }

    @Test
    void hostHeaderDisagreeingWithTheTargetIsRefused() throws Exception {
        String resp = RawHttp.exchange(proxy.port(), "GET http://plain.test:" + origins.plainPort()
                + "/sneaky HTTP/1.1\r\nHost: denied.test\r\nConnection: close\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 403").contains("invalid-request").contains("disagrees");
    }

    @Test
    void originFormOnTheForwardPortIsRefused() throws Exception {
        String resp = RawHttp.exchange(proxy.port(), "GET /x HTTP/1.1\r\nHost: plain.test\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 403").contains("absolute-form");
    }

    @Test
    void aRequestToTheProxyItselfIsRefusedEvenWithLoopbackAllowed() throws Exception {
        // plain.test resolves to 127.0.0.1; its port here is the proxy's own
        String resp = RawHttp.exchange(proxy.port(), "GET http://plain.test:" + proxy.port()
                + "/loop HTTP/1.1\r\nHost: plain.test:" + proxy.port() + "\r\nConnection: close\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 403").contains("dial-refused");
    }

    @Test
    void oversizedHeaderBlockGets431() throws Exception {
        String big = "a".repeat(40_000);
        String resp = RawHttp.exchange(proxy.port(), "GET http://plain.test:" + origins.plainPort()
                + "/ HTTP/1.1\r\nHost: plain.test\r\nX-Big: " + big + "\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 431");
        assertThat(origins.seen).noneMatch(s -> s.contains(big.substring(0, 100)));
    }

    @Test
    void bodyOverTheLimitGets413AndIsAudited() throws Exception {
        String resp = RawHttp.exchange(proxy.port(), "POST http://plain.test:" + origins.plainPort()
                + "/upload HTTP/1.1\r\nHost: plain.test:" + origins.plainPort() + "\r\nContent-Length: 2000000\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 413");
        audit.await(e -> EgressReason.BODY_TOO_LARGE == e.reason() && e.status() == 413, Duration.ofSeconds(30));
        assertThat(origins.seen).noneMatch(s -> s.startsWith("POST /upload"));
    }

    // ---- CONNECT and interception -------------------------------------------------------------------------

    @Test
    void connectToAnUpstreamHostIsInterceptedAndEachRequestDecided() throws Exception {
        String base = "https://api.test:" + origins.tlsPort();
        HttpResponse<String> ok = get(base + "/v1/items");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).startsWith("GET /v1/items\n");
        HttpResponse<String> no = client.send(HttpRequest.newBuilder(URI.create(base + "/admin")).DELETE()
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(no.statusCode()).isEqualTo(403);
        assertThat(no.headers().firstValue("x-stockade-deny")).hasValueSatisfying(v -> v.startsWith("no-rule-matched"));
        assertThat(auditFor("api.test", "/v1/items")).anySatisfy(e -> {
            assertThat(e.listener()).isEqualTo("intercepted");
            assertThat(e.transport()).isEqualTo("upstream");
            assertThat(e.rule()).isEqualTo(0);
        });
    }

    @Test
    void curlThroughTheProxyWithTheExportedCa() throws Exception {
        String out = curlThroughProxy(
                "--cacert", proxy.caCertificate().toString(), "-H", "X-Curl: yes",
                "https://api.test:" + origins.tlsPort() + "/curl/path");
        assertThat(out).startsWith("GET /curl/path\n").contains("x-curl: yes");
    }

    @Test
    void curlPostBodyIsForwarded() throws Exception {
        String out = curlThroughProxy(
                "--cacert", proxy.caCertificate().toString(), "--data-binary", "{\"query\":\"{ a }\"}",
                "https://api.test:" + origins.tlsPort() + "/graphql");
        assertThat(out).startsWith("POST /graphql\n").contains("body-bytes: 17");
    }

    @Test
    void connectToAHostNotRoutedUpstreamGets403AndIsAudited() throws Exception {
        String resp = RawHttp.exchange(proxy.port(), "CONNECT direct.test:443 HTTP/1.1\r\nHost: direct.test:443\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 403").contains("not-routed-upstream");
        assertThat(auditFor("direct.test", null)).anySatisfy(e -> {
            assertThat(e.verdict()).isEqualTo("deny");
            assertThat(e.reason()).isEqualTo(EgressReason.NOT_ROUTED_UPSTREAM);
            assertThat(e.method()).isEqualTo("CONNECT");
        });
    }

    @Test
    void connectToADeniedHostGets403() throws Exception {
        String resp = RawHttp.exchange(proxy.port(), "CONNECT evil.test:443 HTTP/1.1\r\nHost: evil.test:443\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 403").contains("default-deny");
    }

    @Test
    void connectToAnIpLiteralIsDecidedAsWrittenAndDenied() throws Exception {
        String resp = RawHttp.exchange(proxy.port(), "CONNECT 127.0.0.1:" + origins.tlsPort()
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        assertThat(resp).startsWith("HTTP/1.1 403");
    }

    @Test
    void hostHeaderDisagreeingWithTheTunnelIsRefused() throws Exception {
        HttpResponse<String> r = get("https://api.test:" + origins.tlsPort() + "/x",
                "X-Ignored", "1");
        assertThat(r.statusCode()).isEqualTo(200);
        // the JDK client cannot forge Host; curl can: Host names another (allowed) host than the tunnel
        String out = curlThroughProxy(
                "--cacert", proxy.caCertificate().toString(), "-H", "Host: other.test", "-o", "/dev/null",
                "-w", "%{http_code}", "https://api.test:" + origins.tlsPort() + "/x");
        assertThat(out).isEqualTo("403");
    }

    @Test
    void aSecondConnectInsideAnInterceptedTunnelIsRefused() throws Exception {
        // curl opens an allowed tunnel to api.test, then sends CONNECT as the request inside it: a
        // tunnel inside a tunnel must never reach the origin, whatever the policy allows there.
        String out = curlThroughProxy(
                "--cacert", proxy.caCertificate().toString(), "-X", "CONNECT", "-o", "/dev/null", "-w", "%{http_code}",
                "https://api.test:" + origins.tlsPort() + "/evil.test:443");
        assertThat(out).startsWith("4");
        assertThat(origins.seen).noneMatch(s -> s.startsWith("CONNECT"));
    }

    // ---- credentials ------------------------------------------------------------------------------------

    @Test
    void sentinelIsRewrittenOnAnInterceptedRequestToTheCredentialsDomain() throws Exception {
        HttpResponse<String> r = get("https://api.test:" + origins.tlsPort() + "/cred",
                "Authorization", "Bearer __platform_cred:" + CRED_ID + "__");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("authorization: Bearer " + SECRET).contains("x-api-key: bound-secret-777");
    }

    @Test
    void sentinelToAnotherDomainIsDeniedAndAuditedWithoutTheSecret() throws Exception {
        // other.test is allowed by policy but not covered by the credential
        String out = curlThroughProxy(
                "--resolve", "other.test:" + origins.tlsPort() + ":127.0.0.1", "-k",
                "-H", "Authorization: Bearer __platform_cred:" + CRED_ID + "__",
                "https://other.test:" + origins.tlsPort() + "/steal");
        assertThat(out).contains("credential-not-allowed").doesNotContain(SECRET);
        assertThat(auditFor("other.test", "/steal")).singleElement()
                .satisfies(e -> assertThat(e.reason()).isEqualTo(EgressReason.CREDENTIAL_NOT_ALLOWED));
    }

    @Test
    void aSentinelOutsideItsOwnHeaderIsNeverRewrittenSoAnEchoingOriginCannotReflectIt() throws Exception {
        // the origin echoes every request header in its body: a rewritten X-Echo would hand the secret back
        HttpResponse<String> r = get("https://api.test:" + origins.tlsPort() + "/echo",
                "X-Echo", "__platform_cred:" + CRED_ID + "__");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("credential-not-allowed").doesNotContain(SECRET);
        assertThat(origins.seen).noneMatch(s -> s.startsWith("GET /echo"));
    }

    @Test
    void aSentinelGoesOnlyToThePortItsCredentialNames() throws Exception {
        // `api.test` without a port means 443: the origin listens elsewhere, so the secret may not go there
        HttpResponse<String> r = get("https://api.test:" + origins.tlsPort() + "/portless",
                "Authorization", "Bearer __platform_cred:" + PORTLESS_ID + "__");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).doesNotContain("portless-secret-555");
        assertThat(origins.seen).noneMatch(s -> s.startsWith("GET /portless"));
    }

    @Test
    void sentinelOnPlainHttpIsDenied() throws Exception {
        HttpResponse<String> r = get("http://plain.test:" + origins.plainPort() + "/leak",
                "X-Token", "__platform_cred:" + CRED_ID + "__");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).doesNotContain(SECRET);
        assertThat(origins.seen).noneMatch(s -> s.startsWith("GET /leak"));
    }

    @Test
    void credentialToStringRedactsTheSecret() {
        Credential c = new Credential(CRED_ID, "gh", SECRET, List.of("api.test"), "Authorization: Bearer {secret}");
        assertThat(c.toString()).doesNotContain(SECRET).contains("<redacted>");
    }

    // ---- audit, CA, admin --------------------------------------------------------------------------------

    @Test
    void auditFileHoldsOneCanonicalJsonLinePerDecisionAndNoSecrets() throws Exception {
        get("https://api.test:" + origins.tlsPort() + "/audited?token=querysecret",
                "Authorization", "Bearer __platform_cred:" + CRED_ID + "__");
        auditFor("api.test", "/audited");
        String text = Files.readString(auditFile);
        assertThat(text).doesNotContain(SECRET).doesNotContain("bound-secret-777").doesNotContain("querysecret");
        String line = text.lines().filter(l -> l.contains("\"path\":\"/audited\"")).findFirst().orElseThrow();
        assertThat(line).startsWith("{\"time\":\"").contains("\"listener\":\"intercepted\"")
                .contains("\"host\":\"api.test\"").contains("\"method\":\"GET\"").contains("\"verdict\":\"allow\"")
                .contains("\"transport\":\"upstream\"").contains("\"policy\":\"test-policy\"")
                .contains("\"entry\":0").contains("\"rule\":0").contains("\"reason\":\"rule-allow\"")
                .contains("\"status\":200").contains("\"caller\":\"");
        assertThat(text.lines()).allMatch(l -> l.startsWith("{") && l.endsWith("}"));
    }

    @Test
    void callerIsResolvedFromTheKernel() throws Exception {
        get("http://plain.test:" + origins.plainPort() + "/whoami");
        String javaExe = Path.of(ProcessHandle.current().info().command().orElseThrow()).toRealPath().toString();
        assertThat(auditFor("plain.test", "/whoami")).singleElement()
                .satisfies(e -> assertThat(e.caller()).isEqualTo(javaExe));
    }

    @Test
    void caKeyIsPrivateAndCertificateIsExported() throws IOException {
        Path key = dir.resolve("data").resolve("ca-key.pem");
        assertThat(Files.getPosixFilePermissions(key))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(Files.readString(proxy.caCertificate())).startsWith("-----BEGIN CERTIFICATE-----");
    }

    @Test
    void adminHealthAndMetrics() throws Exception {
        HttpClient plain = HttpClient.newHttpClient();
        HttpResponse<String> h = plain.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + proxy.adminPort() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(h.body()).contains("\"status\":\"up\"");
        HttpResponse<String> m = plain.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + proxy.adminPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(m.body()).contains("# TYPE stockade_proxy_connections_open gauge");
    }

    /** Real curl through the forward proxy (bounded); returns what it printed, stdout and stderr together. */
    private static String curlThroughProxy(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("curl", "-sS", "--max-time", "30", "-x",
                "http://127.0.0.1:" + proxy.port()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(40, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
