package dev.stockade.runtime.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.ExternalTerminal;
import org.junit.jupiter.api.Test;

/** How a streamed turn is printed, on a JLine terminal over streams (no pseudo-terminal needed for the text). */
class ReplyViewTest {
    private final ByteArrayOutputStream shown = new ByteArrayOutputStream();

    private String print(SseEvent... events) throws Exception {
        StringBuilder b = new StringBuilder();
        for (SseEvent e : events) {
            b.append(SseWriter.frame(e));
        }
        byte[] wire = b.toString().getBytes(StandardCharsets.UTF_8);
        // JLine's terminal over plain streams (its output is written in the calling thread)
        try (Terminal t = new ExternalTerminal("test", Terminal.TYPE_DUMB, new ByteArrayInputStream(new byte[0]), shown,
                StandardCharsets.UTF_8)) {
            new ReplyView(new Screen(t)).follow(ReplyStream.start(() -> new ByteArrayInputStream(wire)));
        }
        return shown.toString(StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    private static SseEvent text(String event, String text) {
        return SseEvent.of(event, "{\"text\":\"" + text + "\"}");
    }

    @Test
    void piecesArePrintedAsTheyComeAndTheWholeStepIsNotRepeated() throws Exception {
        assertThat(print(text("delta", "Hel"), text("delta", "lo"), text("step", "Hello"),
                SseEvent.of("tool", "{\"name\":\"memory_search\",\"error\":false}"), text("delta", "Done."),
                text("step", "Done."), SseEvent.of("done", "{\"compacted\":false,\"contextPercent\":7}")))
                .isEqualTo("Hello\n  · memory_search\nDone.\n  context 7%\n");
    }

    @Test
    void withoutPiecesTheStepIsPrintedWholeAndARefusedToolIsMarked() throws Exception {
        assertThat(print(SseEvent.of("tool", "{\"name\":\"write_document\",\"error\":true}"), text("step", "I can't."),
                SseEvent.of("done", "{\"compacted\":true,\"contextPercent\":null}")))
                .isEqualTo("  · write_document (refused or failed)\nI can't.\nolder messages of this thread were "
                        + "summarised\n");
    }

    @Test
    void aLineEndingSplitAcrossPiecesIsNotShownAsACarriageReturn() throws Exception {
        assertThat(print(text("delta", "one\\r"), text("delta", "\\ntwo\\r"), text("delta", "three"),
                text("step", "x"), SseEvent.of("done", "{}")))
                .isEqualTo("one\ntwo^Mthree\n");
    }

    @Test
    void aFailedTurnIsOneLine() throws Exception {
        assertThat(print(text("delta", "partial"), SseEvent.of("error", "{\"detail\":\"the provider's stream was cut\"}")))
                .isEqualTo("partial\n! the provider's stream was cut\n");
    }
}
