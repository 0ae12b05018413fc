package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.connectors.UpstreamClient.UpstreamException;
import dev.stockade.proxy.dial.DialGuard;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
    private final CountDownLatch abandoned = new CountDownLatch(1);

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
        upstream.createContext("/endless", ex -> {
            ex.sendResponseHeaders(200, 0); // chunked, never ending
            try {
                for (int i = 0; i < 100_000; i++) {
                    ex.getResponseBody().write(new byte[1024]);
                    ex.getResponseBody().flush();
                    Thread.sleep(2); // a slow drip: the body is still arriving when the client closes it
                }
            } catch (IOException | InterruptedException e) {
                abandoned.countDown(); // the client went away
            } finally {
                ex.close();
            }
        });
        upstream.setExecutor(Executors.newCachedThreadPool());
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private static GuardedHttp client(boolean loopbackAllowed, Map<String, String> names) {
        // no test here is about the call timeout: a bound a loaded machine's first call cannot brush against
        return client(loopbackAllowed, names, Duration.ofSeconds(60));
    }

    private static GuardedHttp client(boolean loopbackAllowed, Map<String, String> names, Duration callTimeout) {
        ConnectorSettings s = new ConnectorSettings(loopbackAllowed, false, List.of(), Duration.ofSeconds(2),
                callTimeout, 1 << 20, 100);
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

    @Test
    void closingAnAnswerReadOnlyInPartAbortsItInsteadOfDrainingIt() throws Exception {
        // HttpClient reads an unfinished body to its end when it is closed, to reuse the connection: for an answer
        // that never ends that would hold the caller until the call timeout (10 minutes here)
        GuardedHttp http = client(true, Map.of("upstream.test", "127.0.0.1"), Duration.ofMinutes(10));
        GuardedHttp.Opened answer = http.open(HttpRequest.newBuilder(URI.create("http://upstream.test:"
                + upstream.getAddress().getPort() + "/endless")).build(), Cancellation.none());
        assertThat(answer.body().readNBytes(4096)).hasSize(4096);
        Thread closer = new Thread(answer::close);
        closer.start();
        assertThat(abandoned.await(60, TimeUnit.SECONDS)).as("the upstream saw the connection go").isTrue();
        closer.join(60_000);
        assertThat(closer.isAlive()).as("close() returned").isFalse();
    }
}
