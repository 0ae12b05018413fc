package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.connectors.UpstreamClient.UpstreamException;
import dev.stockade.proxy.internal.DialGuard;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The connector client resolves names only through the dial guard, so the address checked is the address dialed:
 * no second lookup exists for a DNS answer to change in between (rebinding). Names here resolve only through the
 * guard's table (the system resolver knows none of them), so a request that arrives proves the guard's answer was
 * the one used.
 */
class GuardedHttpResolutionTest {
    private HttpServer upstream;
    private final AtomicInteger hits = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", ex -> {
            hits.incrementAndGet();
            byte[] b = ("host=" + ex.getRequestHeaders().getFirst("Host") + " body="
                    + new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private static GuardedHttp client(boolean loopbackAllowed, Map<String, String> names) {
        ConnectorSettings s = new ConnectorSettings(loopbackAllowed, false, List.of(), Duration.ofSeconds(2),
                Duration.ofSeconds(3), 1 << 20, 100);
        return new GuardedHttp(s, new DialGuard(loopbackAllowed, false, List.of(), List.of(), names));
    }

    private static HttpRequest post(String url) {
        return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"ping\":1}")).build();
    }

    @Test
    void theConnectionGoesToTheAddressTheGuardResolved() throws Exception {
        GuardedHttp http = client(true, Map.of("upstream.test", "127.0.0.1"));
        try (GuardedHttp.Opened answer = http.open(post("http://upstream.test:" + upstream.getAddress().getPort()
                + "/mcp"), Cancellation.none())) {
            assertThat(answer.status()).isEqualTo(200);
            assertThat(new String(answer.body().readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("host=upstream.test:" + upstream.getAddress().getPort() + " body={\"ping\":1}");
        }
    }

    @Test
    void aNameTheGuardResolvesToAForbiddenAddressIsNeverDialed() {
        GuardedHttp http = client(false, Map.of("rebound.test", "127.0.0.1", "metadata.test", "169.254.169.254"));
        for (String host : List.of("rebound.test", "metadata.test")) {
            assertThatThrownBy(() -> http.open(post("http://" + host + ":" + upstream.getAddress().getPort() + "/"),
                    Cancellation.none())).as(host).isInstanceOf(UpstreamException.class)
                    .hasMessageStartingWith("the connector is not dialed");
        }
        assertThat(hits).hasValue(0);
    }
}
