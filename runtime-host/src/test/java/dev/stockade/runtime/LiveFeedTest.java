package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** A thread's live stream: the backlog after a position, then every message as it is stored, whoever stores it. */
class LiveFeedTest extends OneThreadTest {
    /** One {@code entry} event: its id field and its data. */
    record Entry(String id, JsonNode data) {
        String kind() {
            return data.path("kind").asText();
        }

        String text() {
            return data.path("text").asText();
        }
    }

    private HttpResponse<Stream<String>> open(String threadId, String after, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(rt.url("/agents/threads/"
                + java.net.URLEncoder.encode(threadId, java.nio.charset.StandardCharsets.UTF_8) + "/live/" + after)))
                .timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return TestRuntime.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofLines());
    }

    /** The next entry (blocking until it arrives: the test's timeout bounds the wait). */
    private static Entry next(Iterator<String> lines) throws Exception {
        String id = null;
        while (lines.hasNext()) {
            String l = lines.next();
            if (l.startsWith("id: ")) {
                id = l.substring(4);
            } else if (l.startsWith("data: ")) {
                return new Entry(id, ProviderDouble.JSON.readTree(l.substring(6)));
            }
        }
        throw new AssertionError("the stream ended");
    }

    private void say(String text) throws Exception {
        assertThat(rt.post("/agents/threads/" + thread + "/messages", ProviderDouble.JSON.createObjectNode()
                .put("text", text).toString()).status()).isEqualTo(200);
    }

    @Test
    void sendsTheBacklogAfterThePositionThenMessagesAsTheyAreStored() throws Exception {
        provider.enqueue(ProviderDouble.Reply.text("First answer."));
        say("first");
        HttpResponse<Stream<String>> r = open(thread, "0");
        assertThat(r.headers().firstValue("content-type")).hasValue("text/event-stream");
        Iterator<String> it = r.body().iterator();
        Entry user = next(it);
        assertThat(user.kind()).isEqualTo("USER");
        assertThat(user.text()).isEqualTo("first");
        assertThat(user.id()).isEqualTo(user.data().path("id").asText());
        Entry reply = next(it);
        assertThat(reply.kind()).isEqualTo("REPLY");
        assertThat(reply.text()).isEqualTo("First answer.");

        provider.enqueue(ProviderDouble.Reply.text("Second answer."));
        say("second");
        assertThat(next(it).text()).isEqualTo("second");
        assertThat(next(it).text()).isEqualTo("Second answer.");
        r.body().close();

        // A reconnect names the last id it saw; only what came after it is sent.
        Iterator<String> resumed = open(thread, "0", "last-event-id", reply.id()).body().iterator();
        assertThat(next(resumed).text()).isEqualTo("second");
        assertThat(open(thread, "x").statusCode()).isEqualTo(400);
        assertThat(open("no-such-thread", "0").statusCode()).isEqualTo(404);
    }

    @Test
    void aWebhookDeliveryArrivesInTheOpenWebThread() throws Exception {
        rt.patch("/agents/webhook-receiver", "{\"enabled\":true}");
        rt.post("/agents/webhook-subscriptions", "{\"name\":\"alerts\",\"deliverOnly\":true,\"deliverTo\":\"chat\","
                + "\"prompt\":\"alert: {status}\"}");
        assertThat(rt.post("/agents/webhooks/alerts", "{\"status\":\"firing\"}").status()).isEqualTo(200);
        Iterator<String> it = open("web:webhook:alerts", "0").body().iterator();
        assertThat(next(it).text()).isEqualTo("alert: firing");
        assertThat(rt.post("/agents/webhooks/alerts", "{\"status\":\"resolved\"}").status()).isEqualTo(200);
        assertThat(next(it).text()).isEqualTo("alert: resolved");
    }

    @Test
    void aHeartbeatDeliveryArrivesInTheOpenHeartbeatThread() throws Exception {
        provider.enqueue(ProviderDouble.Reply.text("The nightly build is red."), ProviderDouble.Reply.text("DELIVER"));
        assertThat(rt.runtime.schedules().heartbeat(rt.runtime.profileAtStart())).isTrue();
        Iterator<String> it = open("web:heartbeat", "0").body().iterator();
        assertThat(next(it).text()).isEqualTo("The nightly build is red.");
        provider.enqueue(ProviderDouble.Reply.text("It is green again."), ProviderDouble.Reply.text("DELIVER"));
        assertThat(rt.runtime.schedules().heartbeat(rt.runtime.profileAtStart())).isTrue();
        Entry live = next(it);
        assertThat(live.kind()).isEqualTo("REPLY");
        assertThat(live.text()).isEqualTo("It is green again.");
    }

    @Test
    void toolStepsAndIntermediateStepsShowOnlyWhileVerbose() throws Exception {
        provider.enqueue(ProviderDouble.Reply.tool("Looking.", "memory_search", "{\"query\":\"tea\"}"),
                ProviderDouble.Reply.text("Nothing."));
        say("quiet");
        Iterator<String> quiet = open(thread, "0").body().iterator();
        assertThat(next(quiet).kind()).isEqualTo("USER");
        assertThat(next(quiet).kind()).isEqualTo("REPLY");

        rt.patch("/agents/verbose", "{\"verbose\":true}");
        Iterator<String> verbose = open(thread, "0").body().iterator();
        assertThat(next(verbose).kind()).isEqualTo("USER");
        assertThat(next(verbose).kind()).isEqualTo("STEP");
        Entry call = next(verbose);
        assertThat(call.kind()).isEqualTo("TOOL_CALL");
        assertThat(call.text()).isEqualTo("memory_search {\"query\":\"tea\"}");
        assertThat(next(verbose).kind()).isEqualTo("TOOL_RESULT");
        assertThat(next(verbose).text()).isEqualTo("Nothing.");
    }
}
