package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WebSocket upgrades through the ingress, with a real WebSocket server inside a real sandbox (written on Python's
 * standard library: the handshake, masked frames, ping and close) and the JDK's WebSocket client: relayed both ways,
 * admitted exactly as other requests to the port (no credential 401, a member's token passes and never reaches the
 * sandbox, which learns who called), and the sandbox's own refusal of a handshake reaches the client.
 */
@MicronautTest(transactional = false)
class IngressWebSocketTest extends PlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ECHO = """
            import base64, hashlib, json, socket, struct, sys, threading
            PORT = int(sys.argv[1])
            GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
            def exact(c, n):
                b = b''
                while len(b) < n:
                    d = c.recv(n - len(b))
                    if not d:
                        raise EOFError()
                    b += d
                return b
            def send(c, op, data):
                n = len(data)
                head = bytes([0x80 | op]) + (bytes([n]) if n < 126 else bytes([126]) + struct.pack('!H', n))
                c.sendall(head + data)
            def serve(c):
                req = b''
                while b'\\r\\n\\r\\n' not in req:
                    d = c.recv(4096)
                    if not d:
                        return
                    req += d
                lines = req.split(b'\\r\\n\\r\\n')[0].decode().split('\\r\\n')
                h = {l.split(':', 1)[0].strip().lower(): l.split(':', 1)[1].strip() for l in lines[1:]}
                path = lines[0].split(' ')[1]
                if path.startswith('/refuse'):
                    c.sendall(b'HTTP/1.1 403 Forbidden\\r\\nContent-Length: 7\\r\\n\\r\\nno room')
                    c.close()
                    return
                accept = base64.b64encode(hashlib.sha1((h['sec-websocket-key'] + GUID).encode()).digest()).decode()
                c.sendall(('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n'
                           'Sec-WebSocket-Accept: ' + accept + '\\r\\n\\r\\n').encode())
                send(c, 1, json.dumps({'path': path, 'user': h.get('x-forwarded-user-id', ''),
                                       'authorization': h.get('authorization', '')}).encode())
                while True:
                    b0, b1 = exact(c, 2)
                    op, n = b0 & 15, b1 & 127
                    if n == 126:
                        n = struct.unpack('!H', exact(c, 2))[0]
                    elif n == 127:
                        n = struct.unpack('!Q', exact(c, 8))[0]
                    mask = exact(c, 4) if b1 & 128 else bytes(4)
                    data = bytes(x ^ mask[i % 4] for i, x in enumerate(exact(c, n)))
                    if op == 8:
                        send(c, 8, data)
                        c.close()
                        return
                    if op == 9:
                        send(c, 10, data)
                    elif op == 1:
                        send(c, 1, ('echo:' + data.decode()).encode())
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(('0.0.0.0', PORT))
            s.listen()
            while True:
                conn, _ = s.accept()
                threading.Thread(target=serve, args=(conn,), daemon=True).start()
            """;

    @Inject
    LocalProvisioner provisioner;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("sandbox-ingress.host", "sandboxes.test");
    }

    @BeforeAll
    void tools() {
        Requires.bubblewrap();
        assertThat(Path.of("/usr/bin/python3")).as("python3 runs the sandbox's WebSocket server").isExecutable();
    }

    @Test
    void aWebSocketIsRelayedBothWaysAndAdmittedLikeEveryRequestToItsPort() throws Exception {
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "sockets"), "web");
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", "chat",
                "cpu", "250m", "memory", "256Mi", "ports", List.of(Map.of("port", 8080, "visibility", "private"),
                        Map.of("port", 9090, "visibility", "public"))));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String id = created.text("id");
        String path = "/v1/projects/" + project + "/sandboxes/" + id;
        String slug = http.awaitState(path, owner, "running").path("slug").asText();
        serve(id, 8080);
        serve(id, 9090);
        Await.until("both ports ready", Await.LONG, () -> {
            JsonNode ports = http.get(path + "/port-readiness", owner).body().path("ports");
            return ports.size() == 2 && ports.get(0).path("ready").asBoolean() && ports.get(1).path("ready").asBoolean();
        });
        String priv = slug + ".sandboxes.test";

        // a private port: no credential, no upgrade (the same 401 as any request); nothing was relayed
        assertThat(probe(priv, "/chat", "-")).containsExactly("refused 401");

        // a member's token: relayed both ways; the sandbox learns who called, never the token
        List<String> lines = probe(priv, "/chat?room=1", owner, "hello", "zwei");
        JsonNode greeting = JSON.readTree(lines.get(0));
        assertThat(greeting.path("path").asText()).isEqualTo("/chat?room=1");
        assertThat(greeting.path("authorization").asText()).isEmpty();
        assertThat(greeting.path("user").asText()).isEqualTo(http.get("/v1/auth/me", owner).text("id"));
        assertThat(lines.subList(1, lines.size())).containsExactly("echo:hello", "echo:zwei", "closed 1000");

        // a public port: anyone; the sandbox's own refusal of the handshake reaches the client as it was
        List<String> open = probe("9090-" + priv, "/", "-", "x");
        assertThat(JSON.readTree(open.get(0)).path("user").asText()).isEmpty();
        assertThat(open.subList(1, open.size())).containsExactly("echo:x", "closed 1000");
        assertThat(probe("9090-" + priv, "/refuse", "-")).containsExactly("refused 403");
    }

    /** Runs {@link WebSocketProbe} in its own JVM against the platform's port with {@code host} as the Host. */
    private List<String> probe(String host, String path, String token, String... messages) throws Exception {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djdk.httpclient.allowRestrictedHeaders=host", "-cp", System.getProperty("java.class.path"),
                WebSocketProbe.class.getName(), "ws://127.0.0.1:" + server.getPort() + path, host, token));
        argv.addAll(List.of(messages));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
    }

    private void serve(String sandbox, int port) throws Exception {
        String script = "/workspace/ws-" + port + ".py";
        try (ExecProcess p = provisioner.exec(sandbox, new ExecRequest(List.of("sh", "-c", "cat > " + script
                + " && (python3 " + script + " " + port + " > /tmp/ws-" + port + ".log 2>&1 &)"), false, 0, 0))) {
            p.stdin().write(ECHO.getBytes(StandardCharsets.UTF_8));
            p.stdin().close();
            assertThat(p.exit().get(30, TimeUnit.SECONDS)).isZero();
        }
    }
}
