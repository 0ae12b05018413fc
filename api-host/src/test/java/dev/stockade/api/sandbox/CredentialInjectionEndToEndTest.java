package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.FileInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Credential injection end to end: a sandbox-owned credential over HTTPS (the proxy intercepts with its CA, which the
 * sandbox trusts) reaches the origin in its header; the sandbox only ever holds the sentinel.
 */
@MicronautTest(transactional = false)
class CredentialInjectionEndToEndTest extends PlatformTest {
    private static final String PASS = "origin-pass";
    private final ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
    private HttpsServer origin;
    private Path keystore;

    @Inject
    LocalProvisioner provisioner;

    @Override
    protected Map<String, String> extraProperties() {
        try {
            keystore = dataDir.resolve("origin.p12");
            Path pem = dataDir.resolve("origin.pem");
            String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
            run(keytool, "-genkeypair", "-alias", "origin", "-keyalg", "EC", "-dname", "CN=secure.test", "-ext",
                    "san=dns:secure.test", "-validity", "2", "-keystore", keystore.toString(), "-storepass", PASS,
                    "-storetype", "PKCS12");
            run(keytool, "-exportcert", "-rfc", "-alias", "origin", "-keystore", keystore.toString(), "-storepass",
                    PASS, "-file", pem.toString());
            return Map.of("sandbox.egress.allow-loopback-origins", "true", "sandbox.egress.resolve",
                    "secure.test=127.0.0.1", "sandbox.egress.extra-trust", pem.toString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void run(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(out).isTrue();
    }

    private void startOrigin() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(keystore.toFile())) {
            ks.load(in, PASS.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASS.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        origin = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        origin.setHttpsConfigurator(new HttpsConfigurator(ctx));
        origin.createContext("/", ex -> {
            received.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
            byte[] body = "accepted".getBytes(StandardCharsets.UTF_8); // records, never reflects, the header
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        origin.start();
    }

    @AfterAll
    void stopOrigin() {
        if (origin != null) {
            origin.stop(0);
        }
    }

    @Test
    void theSecretReachesTheOriginAndTheSandboxHoldsOnlyTheSentinel() throws Exception {
        Requires.bubblewrap();
        startOrigin();
        int port = origin.getAddress().getPort();
        String secret = "injected-" + UUID.randomUUID();
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "inject"), "p");
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", "inj",
                "cpu", "250m", "memory", "128Mi",
                "ownCredentials", List.of(Map.of("name", "api-key", "secret", secret,
                        "domains", List.of("secure.test:" + port), "headerFormat", "Authorization: Bearer {secret}")),
                "policy", Map.of("name", "inline", "networkDefaultVerdict", "deny",
                        "allowedDomains", List.of(Map.of("pattern", "secure.test", "verdict", "allow")),
                        "credentials", List.of(Map.of("credentialName", "api-key", "envVarKey", "API_KEY")))));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String path = "/v1/projects/" + project + "/sandboxes/" + created.text("id");
        // provisioning runs on worker threads
        Await.until("the sandbox to run", Await.LONG, () -> http.get(path, owner).text("state").equals("running"));
        String out;
        try (ExecProcess p = provisioner.exec(created.text("id"), new ExecRequest(List.of("sh", "-c",
                "echo \"env=$API_KEY\"; curl -sS -m 20 -H \"Authorization: Bearer $API_KEY\" https://secure.test:"
                        + port + "/"), false, 0, 0))) {
            p.stdin().close();
            out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8)
                    + new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
            p.exit().get(30, TimeUnit.SECONDS);
        }
        assertThat(out).contains("env=__platform_cred:").contains("accepted").doesNotContain(secret);
        assertThat(received).containsExactly("Bearer " + secret);
        // the credential is the sandbox's own: listed with it, and gone with it
        assertThat(http.get("/v1/projects/" + project + "/credentials", owner).raw()).contains("api-key")
                .doesNotContain(secret);
        assertThat(http.delete(path, owner).status()).isEqualTo(204);
        assertThat(http.get("/v1/projects/" + project + "/credentials", owner).body().path("items")).isEmpty();
    }
}
