package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Realtime voice over WebSocket through the platform (spec: the Inference routes' realtime rows, Limits, Spending
 * limits, Audit flags): a JDK WebSocket client as the agent, a backend double speaking the Realtime API's events.
 * The backend sees the installation's key and never the caller's token, each response is metered at its audio and
 * text prices and audited with {@code piiMaskingSkipped}, a ninth session of a project is refused, a closed budget
 * refuses a response mid-session and the next handshake, and a halt closes the session.
 */
@MicronautTest(transactional = false)
class RealtimeVoiceTest extends PlatformTest {
    private static final String OPENAI_KEY = "openai-deployment-key-5d1e";
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * gpt-realtime's published list prices (USD per million tokens: text in 4, audio in 32, text out 16, audio out
     * 64), not read from the platform's table: 200 x 4 + 1,000 x 32 + 100 x 16 + 400 x 64 micro-USD.
     */
    private static final long RESPONSE_COST = 200 * 4 + 1_000 * 32 + 100 * 16 + 400 * 64; // 60,000 micro-USD

    private final RealtimeDouble backend = RealtimeDouble.begin();
    private String org;
    private String project;
    private String token;

    @Override
    protected Map<String, String> extraProperties() {
        InferenceFixtures.writeSecret(dataDir, "openai", OPENAI_KEY);
        Map<String, String> p = new HashMap<>();
        p.put("inference.allow-loopback-unsafe", "true");
        p.put("inference.openai.enabled", "true");
        p.put("inference.openai.base-url", backend.baseUrl());
        p.put("inference.openai.api-key-secret", "openai");
        return p;
    }

    @BeforeEach
    void world() {
        String owner = ownerToken();
        org = createOrg(owner, "voice-" + System.nanoTime());
        project = createProject(owner, org, "agents");
        String policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "voice",
                "managedInference", Map.of("enabled", true, "provider", "openai", "providers",
                        List.of("openai")))).text("id");
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner, Map.of("role", "MEMBER"));
        http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy, "apiTokenId", t.text("id")));
        token = t.text("token");
        backend.received.clear();
        backend.handshakes.clear();
        backend.holdResponses = false;
        backend.usage = RealtimeDouble.USAGE;
    }

    @AfterAll
    void stopDouble() {
        backend.close();
    }

    @Test
    void eachResponseIsRelayedWithTheBackendsKeyMeteredAtItsAudioPricesAndAudited() throws Exception {
        Client c = connect("/v1/projects/" + project + "/llm/openai/v1/realtime?model=gpt-realtime");
        assertThat(c.next("session.created").path("session").path("model").asText()).isEqualTo("gpt-realtime");
        c.send("{\"type\":\"response.create\",\"response\":{\"instructions\":\"Say hello\"}}");
        assertThat(c.next("response.output_audio_transcript.delta").path("delta").asText())
                .isEqualTo("Hello from the double");
        c.next("response.done");
        // a response the backend starts itself (voice activity detection) is metered too
        c.send("{\"type\":\"input_audio_buffer.commit\"}");
        c.next("response.done");

        RealtimeDouble.Handshake h = backend.handshakes.get(0);
        assertThat(h.path()).isEqualTo("/v1/realtime?model=gpt-realtime");
        assertThat(h.headers().get("Authorization")).isEqualTo("Bearer " + OPENAI_KEY);
        assertThat(h.headers().toString()).doesNotContain(token);
        JsonNode usage = InferenceFixtures.awaitUsage(http, ownerToken(), org, 2);
        assertThat(usage.path("costUsd").asText()).isEqualTo(InferenceFixtures.usd(2 * RESPONSE_COST));
        assertThat(usage.path("inputTokens").asLong()).isEqualTo(2 * 1_200);
        assertThat(usage.path("outputTokens").asLong()).isEqualTo(2 * 500);
        assertThat(usage.path("inputAudioTokens").asLong()).isEqualTo(2 * 1_000);
        assertThat(usage.path("outputAudioTokens").asLong()).isEqualTo(2 * 400);
        assertThat(usage.path("cacheReadAudioTokens").asLong()).isZero();
        assertThat(usage.path("inputImageTokens").asLong()).isZero();
        JsonNode entry = InferenceFixtures.awaitAudit(http, ownerToken(), org, "success").get(0);
        assertThat(entry.path("action").asText()).isEqualTo("realtime-response");
        assertThat(entry.path("details").path("costMicros").asLong()).isEqualTo(RESPONSE_COST);
        assertThat(entry.path("details").path("piiMaskingSkipped").asBoolean()).isTrue();
        c.close();
    }

    @Test
    void cachedAudioAndImagesAreStoredInTheirOwnBuckets() throws Exception {
        // OpenAI's shape: input_tokens and each modality include the cached tokens, whose own split is in
        // cached_tokens_details. Uncached: 150 text, 800 audio, 50 images; cached: 50 text, 200 audio, 50 images.
        backend.usage = "{\"total_tokens\":1800,\"input_tokens\":1300,\"output_tokens\":500,"
                + "\"input_token_details\":{\"cached_tokens\":300,\"text_tokens\":200,\"audio_tokens\":1000,"
                + "\"image_tokens\":100,\"cached_tokens_details\":{\"text_tokens\":50,\"audio_tokens\":200,"
                + "\"image_tokens\":50}},\"output_token_details\":{\"text_tokens\":100,\"audio_tokens\":400}}";
        Client c = connect("/v1/projects/" + project + "/llm/openai/v1/realtime?model=gpt-realtime");
        c.next("session.created");
        c.send("{\"type\":\"response.create\"}");
        c.next("response.done");
        JsonNode usage = InferenceFixtures.awaitUsage(http, ownerToken(), org, 1);
        assertThat(usage.path("inputTokens").asLong()).isEqualTo(1_300);
        assertThat(usage.path("cacheReadTokens").asLong()).isEqualTo(300);
        assertThat(usage.path("inputAudioTokens").asLong()).isEqualTo(800);
        assertThat(usage.path("cacheReadAudioTokens").asLong()).isEqualTo(200);
        assertThat(usage.path("inputImageTokens").asLong()).isEqualTo(50);
        assertThat(usage.path("cacheReadImageTokens").asLong()).isEqualTo(50);
        assertThat(usage.path("outputAudioTokens").asLong()).isEqualTo(400);
        // published prices: text 4, audio 32, images 5 in; cached text and audio 0.40, images 0.50; out 16 and 64
        long cost = 150 * 4 + 800 * 32 + 50 * 5 + (50 * 40 + 200 * 40 + 50 * 50) / 100 + 100 * 16 + 400 * 64;
        assertThat(usage.path("costUsd").asText()).isEqualTo(InferenceFixtures.usd(cost));
        c.close();
    }

    @Test
    void theUnscopedRouteServesACallerWithOneProjectAsTheRuntimeWritesIt() throws Exception {
        // the runtime appends /realtime to PLATFORM_INFERENCE_OPENAI_BASE_URL (${PLATFORM_API_URL}/llm/openai)
        Client c = connect("/v1/llm/openai/realtime?model=gpt-realtime");
        c.next("session.created");
        assertThat(backend.handshakes.get(0).path()).isEqualTo("/v1/realtime?model=gpt-realtime");
        c.close();
    }

    @Test
    void aNinthSessionOfTheProjectIsRefusedUntilOneCloses() throws Exception {
        String path = "/v1/projects/" + project + "/llm/openai/v1/realtime?model=gpt-realtime";
        List<Client> open = new ArrayList<>();
        for (int i = 0; i < RealtimeRelay.SESSIONS_PER_PROJECT; i++) {
            Client c = connect(path);
            c.next("session.created");
            open.add(c);
        }
        assertThat(refusal(path)).isEqualTo(429);
        open.get(0).close();
        Await.until("a session slot freed", Await.BOUND, () -> {
            try {
                connect(path).close();
                return true;
            } catch (Exception refused) {
                return false;
            }
        });
        open.forEach(Client::close);
    }

    @Test
    void aClosedBudgetRefusesTheNextResponseMidSessionAndTheNextHandshake() throws Exception {
        String path = "/v1/projects/" + project + "/llm/openai/v1/realtime?model=gpt-realtime";
        Client c = connect(path);
        c.next("session.created");
        http.put("/v1/orgs/" + org + "/spending-limits/projects/" + project, ownerToken(), Map.of("amountUsd", "0"));
        c.send("{\"type\":\"response.create\"}");
        JsonNode error = c.next("error");
        assertThat(error.path("error").path("code").asText()).isEqualTo("spending-limit-reached");
        assertThat(backend.receivedOf("response.create")).isEmpty();
        assertThat(refusal(path)).isEqualTo(429);
        assertThat(InferenceFixtures.awaitAudit(http, ownerToken(), org, "denied")).isNotEmpty();
        c.close();
    }

    @Test
    void aResponseCutByTheSessionsEndIsChargedWhatWasHeldForIt() throws Exception {
        backend.holdResponses = true;
        Client c = connect("/v1/projects/" + project + "/llm/openai/v1/realtime?model=gpt-realtime");
        c.next("session.created");
        c.send("{\"type\":\"response.create\",\"response\":{\"max_output_tokens\":100}}");
        c.next("response.output_audio_transcript.delta");
        c.close();
        // the hold: the 32,000-token window at the dearest input price (audio, $32/M) plus 100 tokens at the
        // dearest output price (audio, $64/M)
        long held = 32_000L * 32 + 100L * 64;
        JsonNode usage = InferenceFixtures.awaitUsage(http, ownerToken(), org, 1);
        assertThat(usage.path("costUsd").asText()).isEqualTo(InferenceFixtures.usd(held));
        JsonNode entry = InferenceFixtures.awaitAudit(http, ownerToken(), org, "error").get(0);
        assertThat(entry.path("details").path("streamTruncated").asBoolean()).isTrue();
    }

    @Test
    void aHaltClosesTheSessionAndRefusesTheNextHandshake() throws Exception {
        String path = "/v1/projects/" + project + "/llm/openai/v1/realtime?model=gpt-realtime";
        Client c = connect(path);
        c.next("session.created");
        assertThat(http.post("/v1/orgs/" + org + "/halt", ownerToken(), null).status()).isEqualTo(200);
        assertThat(c.closed.get(30, TimeUnit.SECONDS)).isEqualTo(4403);
        assertThat(refusal(path)).isEqualTo(403);
        http.delete("/v1/orgs/" + org + "/halt", ownerToken());
    }

    @Test
    void aRouteThatIsNotRealtimeOrNotEnabledIsA404() {
        assertThat(refusal("/v1/projects/" + project + "/llm/openai/v1/chat/completions")).isEqualTo(404);
        assertThat(refusal("/v1/projects/" + project + "/llm/azure/openai/v1/realtime?model=x")).isEqualTo(404);
    }

    /** A JDK WebSocket client: the events it received in order, and the close code once closed. */
    private static final class Client implements WebSocket.Listener {
        final List<JsonNode> events = new CopyOnWriteArrayList<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();
        private int taken;
        WebSocket socket;

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    events.add(JSON.readTree(partial.toString()));
                } catch (java.io.IOException e) {
                    throw new IllegalStateException("the platform sent a frame that is not JSON: " + partial, e);
                }
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
            closed.complete(code);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            closed.complete(-1);
        }

        void send(String event) {
            socket.sendText(event, true).join();
        }

        /** The next event of {@code type} after the last one taken, waiting for it. */
        JsonNode next(String type) {
            Await.until("a `" + type + "` event", Await.BOUND, () -> find(type) >= 0);
            int at = find(type);
            taken = at + 1;
            return events.get(at);
        }

        private int find(String type) {
            for (int i = taken; i < events.size(); i++) {
                if (events.get(i).path("type").asText().equals(type)) {
                    return i;
                }
            }
            return -1;
        }

        void close() {
            if (!socket.isOutputClosed()) {
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
            }
        }
    }

    private Client connect(String path) throws Exception {
        Client c = new Client();
        URI uri = URI.create(server.getURI().toString().replaceFirst("^http", "ws") + path);
        try {
            c.socket = HttpClient.newHttpClient().newWebSocketBuilder().header("Authorization", "Bearer " + token)
                    .buildAsync(uri, c).get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException h) {
                throw new Refused(h.getResponse().statusCode(), String.valueOf(h.getResponse().body()));
            }
            throw e;
        }
        return c;
    }

    /** A refused handshake: the HTTP status and the answer's body. */
    private static final class Refused extends Exception {
        final int status;

        Refused(int status, String body) {
            super("handshake refused: " + status + " " + body);
            this.status = status;
        }
    }

    /** The HTTP status of a refused handshake. */
    private int refusal(String path) {
        try {
            connect(path).close();
        } catch (Refused r) {
            return r.status;
        } catch (Exception e) {
            throw new AssertionError("the handshake failed without an answer", e);
        }
        throw new AssertionError("the handshake to " + path + " was accepted");
    }
}
