package dev.stockade.runtime.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.agent.Conversations;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the web chat shows of each stored message, with verbose off and on, and that shown text is escaped. */
class TranscriptTest {
    private static Conversations.Message msg(String role, String content, boolean internal) {
        return new Conversations.Message(7, "t", role, content, internal, false);
    }

    private static Optional<Transcript.Kind> kind(Conversations.Message m, boolean verbose) {
        return Transcript.entry(m, verbose).map(Transcript.Entry::kind);
    }

    @Test
    void peopleRepliesAndNoticesAlwaysShowStepsAndToolsOnlyWhileVerbose() {
        for (boolean verbose : new boolean[] {false, true}) {
            assertThat(kind(msg("user", "hi", false), verbose)).contains(Transcript.Kind.USER);
            assertThat(kind(msg("assistant", "done", false), verbose)).contains(Transcript.Kind.REPLY);
            assertThat(kind(msg("notice", "The turn failed", false), verbose)).contains(Transcript.Kind.NOTICE);
            assertThat(kind(msg("system", "?", false), verbose)).isEmpty();
        }
        Conversations.Message step = msg("assistant", "Let me look.", true);
        Conversations.Message call = msg("tool_use", "{\"id\":\"a\",\"name\":\"shell\",\"input\":{\"command\":\"ls\"}}", true);
        Conversations.Message result = msg("tool_result", "{\"id\":\"a\",\"output\":\"denied\",\"error\":true}", true);
        assertThat(kind(step, false)).isEmpty();
        assertThat(kind(call, false)).isEmpty();
        assertThat(kind(result, false)).isEmpty();
        assertThat(kind(step, true)).contains(Transcript.Kind.STEP);
        assertThat(Transcript.entry(call, true).orElseThrow().text()).isEqualTo("shell {\"command\":\"ls\"}");
        Transcript.Entry r = Transcript.entry(result, true).orElseThrow();
        assertThat(r.kind()).isEqualTo(Transcript.Kind.TOOL_RESULT);
        assertThat(r.text()).isEqualTo("denied");
        assertThat(r.error()).isTrue();
    }

    @Test
    void aDamagedToolStepShowsAsANoticeAndLongOutputIsClipped() {
        Transcript.Entry damaged = Transcript.entry(msg("tool_result", "{\"output\":", true), true).orElseThrow();
        assertThat(damaged.kind()).isEqualTo(Transcript.Kind.NOTICE);
        assertThat(damaged.error()).isTrue();
        String big = "x".repeat(Transcript.TOOL_TEXT + 500);
        String text = Transcript.entry(msg("tool_result", "{\"output\":\"" + big + "\",\"error\":false}", true), true)
                .orElseThrow().text();
        assertThat(text).startsWith("x".repeat(Transcript.TOOL_TEXT) + " … (").endsWith(" characters)")
                .contains(Integer.toString(big.length()));
    }

    @Test
    void anEntryRendersAsEscapedText() {
        String html = Transcript.html(Transcript.entry(msg("assistant", "<img src=x onerror=\"alert(1)\"> & 'q'", false),
                false).orElseThrow());
        assertThat(html).isEqualTo("<li class=\"msg reply\" data-id=\"7\">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"
                + " &amp; 'q'</li>");
    }
}
