package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.webhook.WebhookStore;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every runtime route that takes a JSON body, against the real server: text after the value, duplicate keys,
 * bytes that are not UTF-8, escaped lone surrogates and non-objects are refused with 400 and change nothing;
 * the run queue reads its stored payloads as strictly.
 */
class StrictBodyTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    TestRuntime rt;
    String thread;

    /** A route, and a body it accepts (so the refusals below are about the body, not the route). */
    record Route(String method, String path, String valid, boolean emptyAllowed) {
    }

    /** A refused body and the problem type it must get. */
    record Bad(String label, byte[] body, String slug) {
    }

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
        rt = new TestRuntime(home, TestRuntime.azure(provider)).start();
        thread = rt.post("/agents/threads", "{\"title\":\"t\"}").json().path("id").asText();
        assertThat(rt.post("/agents/webhook-subscriptions", "{\"name\":\"hook\",\"deliverTo\":\"chat\"}").status())
                .isEqualTo(201);
        assertThat(rt.patch("/agents/webhook-receiver", "{\"enabled\":true}").status()).isEqualTo(200);
    }

    @AfterEach
    void stop() {
        rt.close();
        provider.close();
    }

    private List<Route> routes() {
        // The delivery first: the routes after it switch the receiver and the subscription off.
        return List.of(
                new Route("POST", "/agents/webhooks/hook", "{\"event_type\":\"push\"}", false),
                new Route("PATCH", "/agents/verbose", "{\"verbose\":true}", false),
                new Route("PATCH", "/agents/locked-in", "{\"lockedIn\":true}", false),
                new Route("POST", "/agents/threads", "{\"title\":\"second\"}", true),
                new Route("POST", "/agents/threads/" + thread + "/messages", "{\"text\":\"/model other-model\"}", false),
                new Route("PUT", "/agents/documents/soul", "{\"content\":\"changed\"}", false),
                new Route("POST", "/agents/memory/search", "{\"query\":\"anything\"}", false),
                new Route("PATCH", "/agents/webhook-receiver", "{\"enabled\":false}", false),
                new Route("POST", "/agents/webhook-subscriptions", "{\"name\":\"other\"}", false),
                new Route("PATCH", "/agents/webhook-subscriptions/hook", "{\"active\":false}", false),
                new Route("POST", "/agents/cron-tasks", "{\"expression\":\"0 9 * * 1-5\",\"prompt\":\"p\"}", false));
    }

    static List<Bad> badBodies(String valid, boolean emptyAllowed) {
        String rest = valid.substring(1); // the valid object without its opening brace
        List<Bad> out = new ArrayList<>(List.of(
                new Bad("value twice", utf8(valid + valid), "trailing-content"),
                new Bad("words after the value", utf8(valid + " xyz"), "trailing-content"),
                new Bad("{}{}", utf8("{}{}"), "trailing-content"),
                new Bad("duplicate key", utf8("{\"dup\":1,\"dup\":2," + rest), "duplicate-key"),
                new Bad("array", utf8("[" + valid + "]"), "not-an-object"),
                new Bad("string", utf8("\"text\""), "not-an-object"),
                new Bad("null", utf8("null"), "not-an-object"),
                new Bad("cut short", utf8(valid.substring(0, valid.length() - 1)), "invalid-json"),
                new Bad("byte 0xFF", withBytes(rest, 0xFF), "invalid-utf8"),
                new Bad("overlong slash", withBytes(rest, 0xC0, 0xAF), "invalid-utf8"),
                new Bad("UTF-8 encoded surrogate", withBytes(rest, 0xED, 0xA0, 0x80), "invalid-utf8"),
                new Bad("escaped lone surrogate", utf8("{\"x\":\"\\ud800\"," + rest), "invalid-utf8")));
        if (!emptyAllowed) {
            out.add(new Bad("empty", new byte[0], "empty-body"));
        }
        return out;
    }

    @Test
    void everyRouteRefusesEveryMalformedBodyWith400AndChangesNothing() throws Exception {
        String before = state();
        for (Route r : routes()) {
            for (Bad bad : badBodies(r.valid(), r.emptyAllowed())) {
                HttpResponse<String> a = send(r.method(), r.path(), bad.body());
                String what = r.method() + " " + r.path() + " with " + bad.label();
                assertThat(a.statusCode()).as(what).isEqualTo(400);
                assertThat(a.headers().firstValue("content-type")).as(what).hasValue("application/problem+json");
                assertThat(ProviderDouble.JSON.readTree(a.body()).path("type").asText()).as(what)
                        .isEqualTo("urn:stockade:runtime:" + bad.slug());
            }
            assertThat(state()).as("state after refusals on " + r.path()).isEqualTo(before);
        }
        assertThat(provider.calls()).isEmpty();
        for (Route r : routes()) {
            assertThat(send(r.method(), r.path(), utf8(r.valid())).statusCode()).as(r.path()).isBetween(200, 202);
        }
    }

    @Test
    void theRunQueueRefusesAStoredPayloadWithTextAfterIt() throws Exception {
        // A row as a corrupted or hand-edited database would hold it: the queue must not run on its first value.
        new WebhookStore(rt.runtime.store()).accept("hook", "unknown", "{\"a\":1} trailing");
        provider.enqueue(ProviderDouble.Reply.text("second run answered"));
        assertThat(rt.post("/agents/webhooks/hook", "{\"a\":2}").status()).isEqualTo(202);
        TestRuntime.await(() -> runStatuses().equals(List.of("failed", "done")));
        List<String> web = new Conversations(rt.runtime.store()).messages("web:webhook:hook").stream()
                .map(Conversations.Message::content).toList();
        assertThat(web.get(0)).contains("the stored payload has text after the JSON value at line 1, column 9");
        assertThat(web.get(1)).endsWith("second run answered");
        assertThat(provider.chats()).hasSize(1);
        assertThat(WebhookReceiverTest.lastUserText(provider.chats().get(0))).contains("\"a\" : 2").doesNotContain("\"a\" : 1");
    }

    private List<String> runStatuses() {
        try {
            List<String> out = new ArrayList<>();
            rt.get("/agents/webhook-subscriptions/hook/runs").json().path("runs")
                    .forEach(n -> out.add(n.path("status").asText()));
            return out;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** What the routes above could change, read back through the API. */
    private String state() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (String path : List.of("/agents/profile", "/agents/threads", "/agents/threads/" + thread + "/messages",
                "/agents/documents/soul", "/agents/webhook-receiver", "/agents/webhook-subscriptions",
                "/agents/webhook-subscriptions/hook/runs", "/agents/cron-tasks")) {
            sb.append(path).append(' ').append(rt.get(path).body()).append('\n');
        }
        return sb.toString();
    }

    private HttpResponse<String> send(String method, String path, byte[] body) throws Exception {
        return TestRuntime.HTTP.send(HttpRequest.newBuilder(URI.create(rt.url(path))).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code {"x":"<bytes>",<rest>}}: an otherwise valid body with raw bytes inside a string. */
    static byte[] withBytes(String rest, int... bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8("{\"x\":\"a"));
        for (int b : bytes) {
            out.write(b);
        }
        out.writeBytes(utf8("\"," + rest));
        return out.toByteArray();
    }
}
