package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.MutableClock;
import dev.stockade.api.support.OidcPlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Exposed ports through the ingress, with a real HTTP server inside a real sandbox (Python's http.server, echoing
 * what reached it) and curl as the client: who may call a private port (bearer token, CORS origins, the session
 * cookie only from the sandbox's own origins), what the sandbox is told (x-forwarded-user-id, the percent-encoded
 * display name, never the caller's credentials), public ports, and auto-start on a private-port request.
 */
@MicronautTest(transactional = false)
class IngressTest extends OidcPlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ECHO = """
            import http.server, json, sys
            PORT = int(sys.argv[1])
            class H(http.server.BaseHTTPRequestHandler):
                def reply(self):
                    n = int(self.headers.get('Content-Length') or 0)
                    body = self.rfile.read(n).decode() if n else ''
                    out = json.dumps({'port': PORT, 'method': self.command, 'path': self.path, 'body': body,
                                      'headers': {k.lower(): v for k, v in self.headers.items()}}).encode()
                    self.send_response(200)
                    self.send_header('Content-Type', 'application/json')
                    self.send_header('Content-Length', str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                do_GET = do_POST = reply
                def log_message(self, *args):
                    pass
            http.server.ThreadingHTTPServer(('0.0.0.0', PORT), H).serve_forever()
            """;

    @Inject
    LocalProvisioner provisioner;
    @Inject
    MutableClock clock;
    @Inject
    SandboxTimers timers;

    @Override
    protected Map<String, String> oidcTestProperties() {
        return Map.of("sandbox-ingress.host", "sandboxes.test", "sandbox-ingress.cors-origins", "https://app.example",
                "test.clock", "mutable", "sandbox.timers.interval", "1h");
    }

    @BeforeAll
    void tools() {
        Requires.bubblewrap();
        assertThat(Path.of("/usr/bin/python3")).as("python3 (installed by .ci/run) runs the sandbox's server")
                .isExecutable();
    }

    /** One request through the platform's port with the given Host; status line, headers and body as curl saw them. */
    private record Answer(int status, String head, String body) {
        JsonNode json() throws Exception {
            return JSON.readTree(body);
        }
    }

    private Answer call(String host, String method, String path, String... headers) throws Exception {
        List<String> argv = new ArrayList<>(List.of("curl", "-sS", "-m", "60", "-i", "-X", method, "-H", "Host: " + host));
        for (String h : headers) {
            argv.addAll(h.startsWith("DATA:") ? List.of("--data-binary", h.substring(5)) : List.of("-H", h));
        }
        argv.add(server.getURI().resolve(path).toString());
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(70, TimeUnit.SECONDS)).isTrue();
        int split = out.indexOf("\r\n\r\n");
        assertThat(split).as(out).isPositive();
        String head = out.substring(0, split);
        return new Answer(Integer.parseInt(head.split(" ")[1]), head, out.substring(split + 4));
    }

    private void serve(String sandbox, int port) throws Exception {
        // one script file per port: rewriting a shared one could truncate it under a server still starting up
        String script = "/workspace/echo-" + port + ".py";
        try (ExecProcess p = provisioner.exec(sandbox, new ExecRequest(List.of("sh", "-c", "cat > " + script
                + " && (python3 " + script + " " + port + " > /tmp/echo-" + port + ".log 2>&1 &)"), false, 0, 0))) {
            p.stdin().write(ECHO.getBytes(StandardCharsets.UTF_8));
            p.stdin().close();
            assertThat(p.exit().get(30, TimeUnit.SECONDS)).isZero();
        }
    }

    /** Both exposed ports listen (python starts its servers in the background; slow on a loaded machine). */
    private void awaitPortsReady(String sandbox, String path, String owner) throws Exception {
        try {
            Await.until("both ports of " + path + " ready", Await.LONG, () -> {
                JsonNode ports = http.get(path + "/port-readiness", owner).body().path("ports");
                return ports.size() == 2 && ports.get(0).path("ready").asBoolean()
                        && ports.get(1).path("ready").asBoolean();
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; readiness " + http.get(path + "/port-readiness", owner).body()
                    + "; inside the sandbox: " + inside(sandbox, "cat /tmp/echo-*.log; ps -ef; cat /proc/net/tcp"), e);
        }
    }

    /** What a shell command prints inside the sandbox (for a failure's message). */
    private String inside(String sandbox, String command) throws Exception {
        try (ExecProcess p = provisioner.exec(sandbox, new ExecRequest(List.of("sh", "-c", command + " 2>&1"), false,
                0, 0))) {
            p.stdin().close();
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
            p.exit().get(30, TimeUnit.SECONDS);
            return out;
        }
    }

    private JsonNode awaitState(String path, String token, String state) {
        return http.awaitState(path, token, state);
    }

    @Test
    void privatePortsAnswerMembersOnlyPublicPortsAnyoneAndAPrivateRequestStartsAnIdleSandbox() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "ingress");
        String project = createProject(owner, org, "web");
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", "site",
                "cpu", "250m", "memory", "256Mi", "autoStop", "30m", "autoStart", true, "ports", List.of(
                        Map.of("port", 8080, "visibility", "private"), Map.of("port", 9090, "visibility", "public"))));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String id = created.text("id");
        String path = "/v1/projects/" + project + "/sandboxes/" + id;
        String slug = awaitState(path, owner, "running").path("slug").asText();
        serve(id, 8080);
        serve(id, 9090);
        String priv = slug + ".sandboxes.test";
        String pub = "9090-" + slug + ".sandboxes.test";
        awaitPortsReady(id, path, owner);

        // a private port: no credential 401; a member's bearer token 200, and the sandbox learns who, not how
        assertThat(call(priv, "GET", "/").status()).isEqualTo(401);
        Answer ok = call(priv, "GET", "/hello?x=1", "Authorization: Bearer " + owner, "x-forwarded-user-id: spoofed");
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        JsonNode seen = ok.json();
        assertThat(seen.path("port").asInt()).isEqualTo(8080);
        assertThat(seen.path("path").asText()).isEqualTo("/hello?x=1");
        assertThat(seen.path("headers").has("authorization")).isFalse();
        assertThat(seen.path("headers").path("x-forwarded-user-id").asText()).isNotEqualTo("spoofed").isNotBlank();
        assertThat(seen.path("headers").path("x-forwarded-host").asText()).isEqualTo(priv);
        Answer posted = call("8080-" + priv, "POST", "/form", "Authorization: Bearer " + owner,
                "Content-Type: text/plain", "DATA:hello body");
        assertThat(posted.json().path("body").asText()).isEqualTo("hello body");

        // a person: the display name arrives percent-encoded
        String zoe = token("zoe", Map.of("email", "zoe@example.com", "email_verified", true, "name", "Zoë Ünal"));
        String zoeId = http.get("/v1/auth/me", zoe).text("id");
        assertThat(call(priv, "GET", "/", "Authorization: Bearer " + zoe).status()).isEqualTo(404);
        http.put("/v1/orgs/" + org + "/members/" + zoeId, owner, Map.of("role", "ADMIN"));
        JsonNode asZoe = call(priv, "GET", "/", "Authorization: Bearer " + zoe).json().path("headers");
        assertThat(asZoe.path("x-forwarded-user-id").asText()).isEqualTo(zoeId);
        assertThat(asZoe.path("x-forwarded-user-display-name").asText()).isEqualTo("Zo%C3%AB%20%C3%9Cnal");

        // an org API token without a project role: 403; another organization's: 404
        assertThat(call(priv, "GET", "/", "Authorization: Bearer " + createApiToken(owner, org, "plain")).status())
                .isEqualTo(403);
        String other = createOrg(owner, "other");
        assertThat(call(priv, "GET", "/", "Authorization: Bearer " + createApiToken(owner, other, "x")).status())
                .isEqualTo(404);

        // CORS: a listed origin may call with a bearer token; another may not
        Answer cors = call(priv, "GET", "/", "Authorization: Bearer " + owner, "Origin: https://app.example");
        assertThat(cors.status()).isEqualTo(200);
        assertThat(cors.head()).containsIgnoringCase("access-control-allow-origin: https://app.example");
        assertThat(call(priv, "GET", "/", "Authorization: Bearer " + owner, "Origin: https://evil.example").status())
                .isEqualTo(403);
        Answer preflight = call(priv, "OPTIONS", "/", "Origin: https://app.example",
                "Access-Control-Request-Method: POST", "Access-Control-Request-Headers: authorization");
        assertThat(preflight.status()).isEqualTo(204);
        assertThat(preflight.head()).containsIgnoringCase("access-control-allow-headers: authorization");
        assertThat(call(priv, "OPTIONS", "/", "Origin: https://evil.example", "Access-Control-Request-Method: POST")
                .status()).isEqualTo(403);

        // the session cookie counts only from the sandbox's own private-port origins, and never reaches the sandbox
        String cookie = "Cookie: theme=dark; stockade_session=" + owner;
        Answer own = call(priv, "GET", "/", cookie, "Origin: http://8080-" + priv);
        assertThat(own.status()).isEqualTo(200);
        assertThat(own.json().path("headers").path("cookie").asText()).isEqualTo("theme=dark");
        assertThat(call(priv, "GET", "/", cookie, "Origin: https://app.example").status()).isEqualTo(401);
        assertThat(call(priv, "GET", "/", cookie, "Sec-Fetch-Site: cross-site").status()).isEqualTo(401);
        assertThat(call(priv, "GET", "/", cookie, "Sec-Fetch-Site: same-origin").status()).isEqualTo(200);

        // a public port: anyone, and the Authorization header is the application's
        Answer open = call(pub, "GET", "/", "Authorization: Basic YXBwOnNlY3JldA==", "x-forwarded-user-id: spoofed");
        assertThat(open.status()).isEqualTo(200);
        assertThat(open.json().path("headers").path("authorization").asText()).isEqualTo("Basic YXBwOnNlY3JldA==");
        assertThat(open.json().path("headers").has("x-forwarded-user-id")).isFalse();

        // hosts no sandbox exposes
        assertThat(call("7777-" + priv, "GET", "/", "Authorization: Bearer " + owner).status()).isEqualTo(404);
        assertThat(call("nobody.sandboxes.test", "GET", "/").status()).isEqualTo(404);

        // idle, the timer stops it; a private-port request starts it again (nothing listens yet after the restart)
        clock.advance(Duration.ofMinutes(31));
        assertThat(timers.fire()[0]).isEqualTo(1);
        awaitState(path, owner, "stopped");
        assertThat(call(pub, "GET", "/").status()).as("a public request does not start it").isEqualTo(503);
        Answer woke = call(priv, "GET", "/", "Authorization: Bearer " + owner);
        assertThat(woke.status()).as(woke.body()).isEqualTo(502);
        assertThat(woke.body()).contains("port-unreachable");
        assertThat(http.get(path, owner).body().path("state").asText()).isEqualTo("running");
    }
}
