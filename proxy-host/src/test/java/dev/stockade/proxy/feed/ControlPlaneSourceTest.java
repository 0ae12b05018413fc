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
    private final List<String> fetches = new CopyOnWriteArrayList<>();
    /** What the stand-in's document endpoint serves, by hash. */
    private final java.util.Map<String, String> documents = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<Set<String>> closed = new CopyOnWriteArrayList<>();
    private final SandboxRegistry registry = SandboxRegistry.dynamic();
    private ControlPlaneSource source;

    @BeforeEach
    void start() throws IOException {
        platform = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        platform.createContext("/v1/egress/feed", this::serve);
        platform.createContext("/v1/egress/documents/", this::document);
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

    /** The stand-in's document endpoint: the texts in {@link #documents} by hash, 404 for any other. */
    private void document(HttpExchange ex) throws IOException {
        fetches.add(ex.getRequestURI().getPath() + " " + ex.getRequestHeaders().getFirst("Authorization"));
        String hex = ex.getRequestURI().getPath().substring("/v1/egress/documents/".length());
        String text = documents.get(hex);
        if (text == null) {
            ex.sendResponseHeaders(404, -1);
            ex.close();
            return;
        }
        byte[] body = JSON.createObjectNode().put("sha256", hex).put("text", text).toString()
                .getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
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

    /** A wire-1 event: the set with its document whole, as a platform that predates wire 2 sends it. */
    private static String sandbox(long version, String id, String token, String grant) throws IOException {
        String text = JSON.readTree(grant).toString();
        return FeedWire.event(FeedWire.SANDBOX, version, FeedWire.sandbox(set(version, id, token,
                DocumentHash.of(text)), h -> text));
    }

    private static SandboxSet set(long version, String id, String token, DocumentHash grant) {
        return new SandboxSet(version, id, "org-1", "project-1", sha256(token), List.of(grant), List.of(),
                List.of(new SandboxSet.CredentialSpec("key", List.of("api.example.com"),
                        "Authorization: Bearer {secret}", "s3cret-value")));
    }

    private static SandboxParts parts(long version, String id, String token, List<SetPart> grants) {
        return new SandboxParts(version, id, "org-1", "project-1", sha256(token), grants, List.of(), List.of());
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
        assertThat(requests.poll(30, TimeUnit.SECONDS)).isEqualTo("after=0&wire=3 Bearer stk_pxy_test");
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
        assertThat(requests.poll(30, TimeUnit.SECONDS)).startsWith("after=6&wire=3 ");
        assertThat(requests.poll(30, TimeUnit.SECONDS)).startsWith("after=6&wire=3 ");
        // the reader applies the second connection's events on its own thread
        Await.until("sb-b removed", () -> registry.identify("Bearer " + TOKEN_B).isEmpty());
        // a halt denies the org's sandboxes and closes their connections
        assertThat(decide(TOKEN_A, "api.example.com").reason()).isEqualTo(ReasonCode.HALTED);
        assertThat(closed).contains(Set.of("sb-a", "sb-b")); // the halt came before sb-b was removed
        assertThat(String.join("\n", log)).doesNotContain("s3cret-value").doesNotContain("stk_pxy_test");
    }

    @Test
    void wireTwoSendsEachDocumentOnceAndTheReplicaFetchesWhatItLacks() throws Exception {
        String shared = JSON.readTree(allowOnly("api.example.com")).toString();
        String other = JSON.readTree(allowOnly("other.example.com")).toString();
        String gone = JSON.readTree(allowOnly("gone.example.com")).toString();
        DocumentHash sharedHash = DocumentHash.of(shared);
        documents.put(DocumentHash.of(other).hex(), other); // not sent on the feed: fetched by hash
        scripts.add(FeedWire.event(FeedWire.DOCUMENT, -1, FeedWire.document(sharedHash, shared))
                + FeedWire.event(FeedWire.SET, 1, FeedWire.set(set(1, "sb-a", TOKEN_A, sharedHash)))
                + FeedWire.event(FeedWire.SET, 2, FeedWire.set(set(2, "sb-b", TOKEN_B, sharedHash)))
                + FeedWire.event(FeedWire.READY, -1, FeedWire.ready(2)));
        source.start();
        assertThat(source.awaitSynced(Await.BOUND)).isTrue();
        assertThat(decide(TOKEN_A, "api.example.com").allowed()).isTrue();
        assertThat(decide(TOKEN_B, "api.example.com").allowed()).isTrue();
        assertThat(fetches).as("the shared document came on the feed, once").isEmpty();

        // the next connection: sets listing documents it was not sent
        scripts.add(FeedWire.event(FeedWire.SET, 3, FeedWire.set(set(3, "sb-b", TOKEN_B, DocumentHash.of(other))))
                + FeedWire.event(FeedWire.SET, 4, FeedWire.set(set(4, "sb-a", TOKEN_A, DocumentHash.of(gone)))));

        Await.until("sets 3 and 4 in force", () -> source.status().version() == 4
                && decide(TOKEN_B, "other.example.com").allowed()
                && decide(TOKEN_A, "api.example.com").reason() == ReasonCode.POLICY_UNAVAILABLE);
        assertThat(decide(TOKEN_B, "api.example.com").allowed()).isFalse();
        // a document the platform does not have either: the sandbox listing it denies everything
        assertThat(decide(TOKEN_A, "gone.example.com").reason()).isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
        assertThat(fetches).as("compiled in parallel: any order").containsExactlyInAnyOrder(
                "/v1/egress/documents/" + DocumentHash.of(other).hex() + " Bearer stk_pxy_test",
                "/v1/egress/documents/" + DocumentHash.of(gone).hex() + " Bearer stk_pxy_test");
        assertThat(String.join("\n", log)).doesNotContain("s3cret-value").doesNotContain("stk_pxy_test");
    }

    @Test
    void wireThreeResolvesEverySetNamingASharedListWhenTheListAloneChanges() throws Exception {
        String v1 = JSON.readTree(allowOnly("api.example.com")).toString();
        String v2 = JSON.readTree(allowOnly("v2.example.com")).toString();
        String own = JSON.readTree(allowOnly("own.example.com")).toString();
        String list = "policy:11111111-1111-1111-1111-111111111111";
        // the list goes ahead of the first set naming it, without a version; sb-b also names a document of its own
        scripts.add(FeedWire.event(FeedWire.DOCUMENT, -1, FeedWire.document(DocumentHash.of(v1), v1))
                + FeedWire.event(FeedWire.DOCUMENT, -1, FeedWire.document(DocumentHash.of(own), own))
                + FeedWire.event(FeedWire.SHARED, -1, FeedWire.shared(list, "org-1", -1,
                        List.of(DocumentHash.of(v1))))
                + FeedWire.event(FeedWire.SET, 3, FeedWire.parts(parts(3, "sb-a", TOKEN_A, List.of(
                        new SetPart.Shared(list)))))
                + FeedWire.event(FeedWire.SET, 4, FeedWire.parts(parts(4, "sb-b", TOKEN_B, List.of(
                        new SetPart.Shared(list), new SetPart.Document(DocumentHash.of(own))))))
                + FeedWire.event(FeedWire.READY, -1, FeedWire.ready(4)));
        List<SandboxSet> applied = new CopyOnWriteArrayList<>();
        source.close();
        FeedApplier applier = new FeedApplier(registry, closed::add, log::add);
        source = new ControlPlaneSource(URI.create("http://127.0.0.1:" + platform.getAddress().getPort() + "/"),
                "stk_pxy_test", applier, log::add, applied::add, Duration.ofSeconds(2));
        source.start();
        assertThat(source.awaitSynced(Await.BOUND)).isTrue();
        assertThat(decide(TOKEN_A, "api.example.com").allowed()).isTrue();
        assertThat(decide(TOKEN_B, "own.example.com").allowed()).isTrue();
        assertThat(decide(TOKEN_B, "v2.example.com").allowed()).isFalse();

        // the next connection: the list alone changes, at version 9; no set is sent
        applied.clear();
        awaitDisconnected();
        scripts.add(FeedWire.event(FeedWire.DOCUMENT, -1, FeedWire.document(DocumentHash.of(v2), v2))
                + FeedWire.event(FeedWire.SHARED, 9, FeedWire.shared(list, "org-1", 9, List.of(DocumentHash.of(v2)))));
        Await.until("the list's change in force for both sandboxes", () -> source.status().version() == 9
                && decide(TOKEN_A, "v2.example.com").allowed() && decide(TOKEN_B, "v2.example.com").allowed());
        assertThat(decide(TOKEN_A, "api.example.com").allowed()).isFalse();
        assertThat(decide(TOKEN_B, "own.example.com").allowed()).as("its own document stays").isTrue();
        assertThat(applied).extracting(SandboxSet::sandboxId).containsExactlyInAnyOrder("sb-a", "sb-b");
        assertThat(applied).extracting(SandboxSet::version).containsOnly(9L);
        assertThat(requests).anySatisfy(r -> assertThat(r).startsWith("after=4&wire=3 "));
    }

    @Test
    void aSetNamingAListTheReplicaWasNeverSentDeniesUntilTheListArrives() throws Exception {
        String doc = JSON.readTree(allowOnly("api.example.com")).toString();
        scripts.add(FeedWire.event(FeedWire.DOCUMENT, -1, FeedWire.document(DocumentHash.of(doc), doc))
                + FeedWire.event(FeedWire.SET, 1, FeedWire.parts(parts(1, "sb-a", TOKEN_A, List.of(
                        new SetPart.Shared("policy:never-sent")))))
                + FeedWire.event(FeedWire.READY, -1, FeedWire.ready(1)));
        source.start();
        assertThat(source.awaitSynced(Await.BOUND)).isTrue();
        assertThat(decide(TOKEN_A, "api.example.com").reason()).isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
        assertThat(fetches).as("nothing to fetch for a list").isEmpty();
        awaitDisconnected();
        scripts.add(FeedWire.event(FeedWire.SHARED, 2, FeedWire.shared("policy:never-sent", "org-1", 2,
                List.of(DocumentHash.of(doc)))));
        Await.until("the list arrived", () -> decide(TOKEN_A, "api.example.com").allowed());
    }

    @Test
    void aPlatformThatRefusesWireThreeIsReadOnWireTwo() throws Exception {
        String doc = JSON.readTree(allowOnly("api.example.com")).toString();
        scripts.add("status:400");
        scripts.add(FeedWire.event(FeedWire.DOCUMENT, -1, FeedWire.document(DocumentHash.of(doc), doc))
                + FeedWire.event(FeedWire.SET, 1, FeedWire.set(set(1, "sb-a", TOKEN_A, DocumentHash.of(doc))))
                + FeedWire.event(FeedWire.READY, -1, FeedWire.ready(1)));
        source.start();
        assertThat(source.awaitSynced(Await.BOUND)).isTrue();
        assertThat(requests.poll(30, TimeUnit.SECONDS)).startsWith("after=0&wire=3 ");
        assertThat(requests.poll(30, TimeUnit.SECONDS)).startsWith("after=0&wire=2 ");
        assertThat(decide(TOKEN_A, "api.example.com").allowed()).isTrue();
        assertThat(log).anySatisfy(l -> assertThat(l).contains("wire 3"));
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
