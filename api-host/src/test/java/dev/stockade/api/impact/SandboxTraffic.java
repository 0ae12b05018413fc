package dev.stockade.api.impact;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Real traffic for the trail: a loopback origin that answers every request {@code ok}, and {@code curl} run inside a
 * real sandbox through the platform's egress proxy, so that the proxy records each decision as it does in production.
 * The test's properties point the names {@link #HOSTS} at the origin.
 */
final class SandboxTraffic implements AutoCloseable {
    static final List<String> HOSTS = List.of("allowed.test", "other.test", "denied.test");

    private final HttpServer origin;

    private SandboxTraffic(HttpServer origin) {
        this.origin = origin;
    }

    /** The platform properties that let a sandbox reach the loopback origin under {@link #HOSTS}. */
    static Map<String, String> properties() {
        return Map.of("sandbox.egress.allow-loopback-origins", "true", "sandbox.egress.resolve",
                String.join(",", HOSTS.stream().map(h -> h + "=127.0.0.1").toList()));
    }

    static SandboxTraffic start() throws IOException {
        HttpServer origin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        origin.createContext("/", ex -> {
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        origin.start();
        return new SandboxTraffic(origin);
    }

    int port() {
        return origin.getAddress().getPort();
    }

    /** Fetches {@code url} with curl inside {@code sandbox}; the output ends with {@code [STATUS]}. */
    static String curl(LocalProvisioner provisioner, String sandbox, String url) throws Exception {
        List<String> argv = new ArrayList<>(List.of("curl", "-sS", "-m", "20", "-w", " [%{http_code}]", url));
        try (ExecProcess p = provisioner.exec(sandbox, new ExecRequest(argv, false, 0, 0))) {
            p.stdin().close();
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8)
                    + new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
            p.exit().get(30, TimeUnit.SECONDS);
            return out;
        }
    }

    @Override
    public void close() {
        origin.stop(0);
    }
}
