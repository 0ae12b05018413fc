package dev.stockade.proxy.feed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.proxy.SandboxRegistry;
import dev.stockade.testing.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The replica's side of the proxy feed against a stand-in platform that speaks the feed's wire format over real HTTP
 * (the real platform is exercised end to end in api-host's {@code ProxyReplicaEndToEndTest}): each test scripts what
 * one connection sends, then cuts it.
 */
// Each wait below is bounded on its own (Await.BOUND); the module's 30 s hang guard would cut a slow but progressing run.
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ControlPlaneSourceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN_A = "stk_sbx_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    private static final String TOKEN_B = "stk_sbx_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    private HttpServer platform;
    /** One script per connection, in order; each is the body sent before the connection is cut. */
    private final BlockingQueue<String> scripts = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> requests = new LinkedBlockingQueue<>();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<Set<String>> closed = new CopyOnWriteArrayList<>();
    private final SandboxRegistry registry = SandboxRegistry.dynamic();
    private ControlPlaneSource source;

    @BeforeEach
    void start() throws IOException {
        platform = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        platform.createContext("/v1/egress/feed", this::serve);
        platform.start();
        FeedApplier applier = new FeedApplier(registry, closed::add, log::add);
        source = new ControlPlaneSource(URI.create("http://127.0.0.1:" + platform.getAddress().getPort() + "/"),
                "stk_pxy_test", applier, log::add, s -> { }, Duration.ofSeconds(2));
    }

    @AfterEach
    void stop() {
        source.close();
        platform.stop(0);
    }

    private void serve(HttpExchange ex) throws IOException {
        requests.add(ex.getRequestURI().getRawQuery() + " " + ex.getRequestHeaders().getFirst("Authorization"));
        String script;
        try {
            script = scripts.poll(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
        if (script == null || script.startsWith("status:")) {
            int status = script == null ? 503 : Integer.parseInt(script.substring(7));
            ex.sendResponseHeaders(status, -1);
            ex.close();
            return;
        }
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(script.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    private static String sandbox(long version, String id, String token, String grant) throws IOException {
        JsonNode doc = JSON.readTree(grant);
        SandboxSet set = new SandboxSet(version, id, "org-1", "project-1", sha256(token), List.of(doc), List.of(),
                List.of(new SandboxSet.CredentialSpec("key", List.of("api.example.com"),
                        "Authorization: Bearer {secret}", "s3cret-value")));
        return FeedWire.event(FeedWire.SANDBOX, version, FeedWire.sandbox(set));
    }

    private Decision decide(String token, String host) {
        Optional<SandboxRegistry.Sandbox> s = registry.identify("Bearer " + token);
        assertThat(s).as("sandbox of %s", token).isPresent();
        return s.get().enforcement().get().program().decideConnection(EgressRequest.connection("https", host, 443, host, null));
    }

    private static String allowOnly(String host) {
        return "{\"name\":\"p\",\"networkDefaultVerdict\":\"deny\",\"allowedDomains\":[{\"pattern\":\"" + host
                + "\",\"verdict\":\"allow\"}]}";
    }

    @Test
    void appliesSetsResumesAfterTheLastVersionAndKeepsTheLastGoodSetWhileCutOff() throws Exception {
        scripts.add(FeedWire.event(FeedWire.HALTED, -1, FeedWire.halted(Set.of()))
                + sandbox(5, "sb-a", TOKEN_A, allowOnly("api.example.com"))
                + sandbox(6, "sb-b", TOKEN_B, "{\"name\":\"bad\",\"allowedDomains\":[{\"pattern\":\"\"}]}")
                + ": ping\n\n"
                + FeedWire.event(FeedWire.READY, -1, FeedWire.ready(6)));
        source.start();
        assertThat(source.awaitSynced(Await.BOUND)).isTrue();
        assertThat(requests.poll(30, TimeUnit.SECONDS)).isEqualTo("after=0 Bearer stk_pxy_test");
        assertThat(decide(TOKEN_A, "api.example.com").allowed()).isTrue();
        assertThat(decide(TOKEN_A, "other.example.com").allowed()).isFalse();
        // a set whose documents do not read denies everything for its sandbox
        assertThat(decide(TOKEN_B, "api.example.com").reason()).isEqualTo(ReasonCode.POLICY_UNAVAILABLE);

        // the platform cut the stream: the replica says so, keeps enforcing, and resumes after version 6
        awaitDisconnected();
        assertThat(log).anySatisfy(l -> assertThat(l).contains("keeping the last good set of 2 sandbox(es) at version 6"));
        assertThat(decide(TOKEN_A, "api.example.com").allowed()).isTrue();
        scripts.add("status:503");
        scripts.add(FeedWire.event(FeedWire.HALTED, -1, FeedWire.halted(Set.of("org-1")))
                + FeedWire.event(FeedWire.REMOVED, 7, FeedWire.removed(7, "sb-b")));
        assertThat(requests.poll(30, TimeUnit.SECONDS)).startsWith("after=6 ");
        assertThat(requests.poll(30, TimeUnit.SECONDS)).startsWith("after=6 ");
        // the reader applies the second connection's events on its own thread
        Await.until("sb-b removed", () -> registry.identify("Bearer " + TOKEN_B).isEmpty());
        // a halt denies the org's sandboxes and closes their connections
        assertThat(decide(TOKEN_A, "api.example.com").reason()).isEqualTo(ReasonCode.HALTED);
        assertThat(closed).contains(Set.of("sb-a", "sb-b")); // the halt came before sb-b was removed
        assertThat(String.join("\n", log)).doesNotContain("s3cret-value").doesNotContain("stk_pxy_test");
    }

    @Test
    void aSetThatDoesNotParseTakesTheSandboxsOldSetAway() throws Exception {
        scripts.add(sandbox(1, "sb-a", TOKEN_A, allowOnly("api.example.com"))
                + FeedWire.event(FeedWire.READY, -1, FeedWire.ready(1))
                + "event: sandbox\nid: 2\ndata: {\"version\":2,\"sandboxId\":\"sb-a\"}\n\n");
        source.start();
        assertThat(source.awaitSynced(Await.BOUND)).isTrue();
        // the broken set follows the ready event; the set goes, then the line is logged
        Await.until("sb-a's set taken away and logged", () -> registry.identify("Bearer " + TOKEN_A).isEmpty()
                && log.stream().anyMatch(l -> l.contains("does not read")));
        assertThat(log).anySatisfy(l -> assertThat(l).contains("sb-a").contains("does not read"));
    }

    @Test
    void aRefusedTokenIsReportedAndRetried() throws Exception {
        scripts.add("status:401");
        source.start();
        assertThat(requests.poll(30, TimeUnit.SECONDS)).isNotNull();
        // the refusal is recorded after the answer is read
        Await.until("the refusal recorded", () -> !source.status().lastError().equals("not connected yet"));
        assertThat(source.status().connected()).isFalse();
        assertThat(source.status().lastError()).contains("401").contains("proxy token");
        assertThat(requests.poll(30, TimeUnit.SECONDS)).as("retried after backoff").isNotNull();
    }

    private void awaitDisconnected() throws InterruptedException {
        // the stand-in closes the stream right after the script
        Await.until("the source to see the stream end", () -> !source.status().connected());
    }

    private static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
