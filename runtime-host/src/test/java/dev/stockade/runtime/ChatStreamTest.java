package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** A chat turn streamed as server-sent events: what verbose delivers, and that events leave as they happen. */
class ChatStreamTest extends OneThreadTest {
    record Event(String name, JsonNode data) {
        @Override
        public String toString() {
            return name + " " + data;
        }
    }

    private HttpResponse<Stream<String>> open(String text) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(rt.url("/agents/threads/" + thread + "/messages")))
                .timeout(Duration.ofSeconds(60)).header("accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(ProviderDouble.JSON.createObjectNode().put("text", text)
                        .toString())).build();
        return TestRuntime.HTTP.send(req, HttpResponse.BodyHandlers.ofLines());
    }

    /** The next event of the stream (blocking until it has arrived), or null at its end. */
    private static Event next(Iterator<String> lines) throws Exception {
        String name = null;
        while (lines.hasNext()) {
            String l = lines.next();
            if (l.startsWith("event: ")) {
                name = l.substring(7);
            } else if (l.startsWith("data: ")) {
                return new Event(name, ProviderDouble.JSON.readTree(l.substring(6)));
            }
        }
        return null;
    }

    private List<Event> all(String text) throws Exception {
        HttpResponse<Stream<String>> r = open(text);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("text/event-stream");
        List<Event> out = new ArrayList<>();
        Iterator<String> it = r.body().iterator();
        for (Event e = next(it); e != null; e = next(it)) {
            out.add(e);
        }
        return out;
    }

    @Test
    void withVerboseOffOnlyTheFinalStepIsStreamedAndToolsAreAnnounced() throws Exception {
        provider.enqueue(ProviderDouble.Reply.tool("Let me note that.", "memory_write",
                "{\"content\":\"Ada prefers tea\"}"), ProviderDouble.Reply.text("Noted: tea."));
        List<Event> events = all("Remember: Ada prefers tea");
        assertThat(events).extracting(Event::toString).containsExactly(
                "tool {\"name\":\"memory_write\",\"error\":false}",
                "step {\"text\":\"Noted: tea.\"}",
                "done {\"delivered\":[\"Noted: tea.\"],\"compacted\":false,\"contextPercent\":0}");
    }

    @Test
    void withVerboseOnEveryStepIsStreamedPieceByPieceThenWhole() throws Exception {
        assertThat(rt.patch("/agents/verbose", "{\"verbose\":true}").status()).isEqualTo(200);
        provider.enqueue(ProviderDouble.Reply.tool("Let me note that.", "memory_write",
                "{\"content\":\"Ada prefers tea\"}"), ProviderDouble.Reply.text("Noted: tea."));
        List<Event> events = all("Remember: Ada prefers tea");
        assertThat(events).extracting(Event::name).containsExactly("delta", "step", "tool", "delta", "step", "done");
        assertThat(events.get(1).data().path("text").asText()).isEqualTo("Let me note that.");
        assertThat(events.get(5).data().path("delivered")).hasSize(2);
    }

    @Test
    void eventsLeaveWhileTheTurnIsStillRunning() throws Exception {
        assertThat(rt.patch("/agents/verbose", "{\"verbose\":true}").status()).isEqualTo(200);
        provider.holdChats().enqueue(ProviderDouble.Reply.tool("Checking.", "memory_search",
                "{\"query\":\"tea\"}"), ProviderDouble.Reply.text("Nothing yet."));
        provider.release(1);
        Iterator<String> it = open("What do I drink?").body().iterator();
        // The second model call is held: the first step and the tool must already have arrived.
        assertThat(next(it).name()).isEqualTo("delta");
        assertThat(next(it).data().path("text").asText()).isEqualTo("Checking.");
        assertThat(next(it).data().path("name").asText()).isEqualTo("memory_search");
        TestRuntime.await(() -> provider.chats().size() == 2); // the second call is waiting at the double
        provider.release(1);
        assertThat(next(it).name()).isEqualTo("delta");
        assertThat(next(it).data().path("text").asText()).isEqualTo("Nothing yet.");
        assertThat(next(it).name()).isEqualTo("done");
        assertThat(next(it)).isNull();
    }

    @Test
    void aClientThatGoesAwayMidTurnDoesNotStopTheTurnItsStepsAreStored() throws Exception {
        provider.holdChats().enqueue(ProviderDouble.Reply.tool(null, "memory_search", "{\"query\":\"tea\"}"),
                ProviderDouble.Reply.text("Stored anyway."));
        provider.release(1);
        HttpResponse<Stream<String>> r = open("What do I drink?");
        Iterator<String> it = r.body().iterator();
        assertThat(next(it).name()).isEqualTo("tool");
        r.body().close(); // the client leaves while the second model call is held
        TestRuntime.await(() -> provider.chats().size() == 2);
        provider.release(1);
        TestRuntime.await(() -> {
            try {
                return rt.get("/agents/threads/" + thread + "/messages").body().contains("Stored anyway.");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aFailedTurnEndsTheStreamWithAProblemAndANoticeInTheThread() throws Exception {
        provider.enqueue(ProviderDouble.Reply.status(400));
        List<Event> events = all("hello");
        assertThat(events).hasSize(1);
        JsonNode p = events.get(0).data();
        assertThat(events.get(0).name()).isEqualTo("error");
        assertThat(p.path("status").asInt()).isEqualTo(502);
        assertThat(p.path("type").asText()).isEqualTo("urn:stockade:runtime:provider-failed");
        assertThat(p.path("title").asText()).isEqualTo("Bad Gateway");
        JsonNode msgs = rt.get("/agents/threads/" + thread + "/messages").json().path("messages");
        assertThat(msgs.get(msgs.size() - 1).path("role").asText()).isEqualTo("notice");
    }

    @Test
    void withoutTheStreamingAcceptTheAnswerIsOneJsonObject() throws Exception {
        provider.enqueue(ProviderDouble.Reply.text("Hi."));
        TestRuntime.Answer a = rt.post("/agents/threads/" + thread + "/messages", "{\"text\":\"hello\"}",
                "accept", "application/json");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.json().path("delivered").toString()).isEqualTo("[\"Hi.\"]");
        assertThat(Map.of("ok", a.json().has("contextPercent"))).containsEntry("ok", true);
    }
}
