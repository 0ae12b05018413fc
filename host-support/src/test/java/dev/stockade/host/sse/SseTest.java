package dev.stockade.host.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SseTest {
    private static List<SseEvent> read(String wire, AtomicInteger lines) throws IOException {
        List<SseEvent> out = new ArrayList<>();
        try (SseReader r = new SseReader(new ByteArrayInputStream(wire.getBytes(StandardCharsets.UTF_8)),
                lines::incrementAndGet)) {
            for (SseEvent e = r.next(); e != null; e = r.next()) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void readsTheHtmlStandardsFieldsAndSkipsComments() throws IOException {
        AtomicInteger lines = new AtomicInteger();
        String wire = ": keep-alive\n\nevent: sandbox\nid: 7\ndata: {\"a\":\ndata:1}\n\n"
                + "data:  two spaces\n\nretry: 10\nevent: empty\n\n";
        assertThat(read(wire, lines)).containsExactly(
                new SseEvent("sandbox", "{\"a\":\n1}", "7"),
                new SseEvent("message", " two spaces", null),
                new SseEvent("empty", "", null));
        assertThat(lines).hasValue(12); // every line of the wire, the keep-alive comment and blank lines included
    }

    @Test
    void anUnterminatedLastEventIsNotDispatched() throws IOException {
        assertThat(read("event: cut\ndata: half", new AtomicInteger())).isEmpty();
    }

    @Test
    void writtenEventsReadBackUnchangedWhateverTheirData() throws IOException {
        List<SseEvent> events = List.of(new SseEvent("x", "line one\nline two\r\n\nevent: forged", "3"),
                SseEvent.of("message", ""), SseEvent.of("y", "data: not a field"));
        StringBuilder wire = new StringBuilder(SseWriter.comment("ping"));
        events.forEach(e -> wire.append(SseWriter.frame(e)));
        assertThat(read(wire.toString(), new AtomicInteger())).containsExactly(
                new SseEvent("x", "line one\nline two\n\nevent: forged", "3"), SseEvent.of("message", ""),
                SseEvent.of("y", "data: not a field"));
    }
}
