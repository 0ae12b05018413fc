package dev.stockade.runtime.tui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseWriter;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The runtime's stream events read into turn events, the ends of a stream, and detaching while nothing arrives. */
class ReplyStreamTest {
    private static InputStream frames(SseEvent... events) {
        StringBuilder b = new StringBuilder();
        for (SseEvent e : events) {
            b.append(SseWriter.frame(e));
        }
        return new ByteArrayInputStream(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void eachEventOfTheRuntimeBecomesATurnEvent() throws Exception {
        ReplyStream s = ReplyStream.start(() -> frames(SseEvent.of("delta", "{\"text\":\"Hel\"}"),
                SseEvent.of("step", "{\"text\":\"Hello\"}"), SseEvent.of("tool", "{\"name\":\"shell\",\"error\":true}"),
                SseEvent.of("later-kind", "{}"), SseEvent.of("done", "{\"delivered\":[\"Hello\"],\"compacted\":true,"
                        + "\"contextPercent\":null}")));
        assertThat(s.next()).isEqualTo(new TurnEvent.Delta("Hel"));
        assertThat(s.next()).isEqualTo(new TurnEvent.Step("Hello"));
        assertThat(s.next()).isEqualTo(new TurnEvent.ToolRan("shell", true));
        assertThat(s.next()).isEqualTo(new TurnEvent.Done(true, null));
    }

    @Test
    void aFailedTurnCarriesTheProblemsDetail() throws Exception {
        ReplyStream s = ReplyStream.start(() -> frames(SseEvent.of("error", "{\"type\":\"urn:stockade:runtime:"
                + "provider-failed\",\"title\":\"Bad Gateway\",\"status\":502,\"detail\":\"the provider answered 429\"}")));
        assertThat(s.next()).isEqualTo(new TurnEvent.Failed("the provider answered 429"));
    }

    @Test
    void aStreamThatEndsBeforeTheTurnOrCarriesNoJsonIsAFailure() throws Exception {
        assertThat(ReplyStream.start(() -> frames(SseEvent.of("delta", "{\"text\":\"a\"}"))).next())
                .isEqualTo(new TurnEvent.Delta("a"));
        ReplyStream cut = ReplyStream.start(() -> frames(SseEvent.of("delta", "{\"text\":\"a\"}")));
        cut.next();
        assertThat(cut.next()).isEqualTo(new TurnEvent.Failed("the runtime ended the stream before the turn ended"));
        assertThat(ReplyStream.start(() -> frames(SseEvent.of("step", "{\"text\":"))).next())
                .isInstanceOf(TurnEvent.Failed.class);
    }

    @Test
    void aRuntimeThatRefusesIsOneLine() throws Exception {
        ReplyStream s = ReplyStream.start(() -> {
            throw new RuntimeUnavailable("no such thread (HTTP 404)");
        });
        assertThat(s.next()).isEqualTo(new TurnEvent.Failed("no such thread (HTTP 404)"));
    }

    @Test
    void detachingEndsTheWaitAtOnceAndClosesTheConnection() throws Exception {
        PipedOutputStream runtime = new PipedOutputStream();
        PipedInputStream body = new PipedInputStream(runtime);
        ReplyStream s = ReplyStream.start(() -> body);
        runtime.write(SseWriter.bytes(SseEvent.of("delta", "{\"text\":\"thinking\"}")));
        runtime.flush();
        assertThat(s.next()).isEqualTo(new TurnEvent.Delta("thinking"));
        s.detach(); // nothing more arrives from the runtime, and the wait ends anyway
        assertThat(s.next()).isEqualTo(new TurnEvent.Detached());
        assertThatThrownBy(body::read).as("the body was closed").hasMessage("Pipe closed");
    }
}
