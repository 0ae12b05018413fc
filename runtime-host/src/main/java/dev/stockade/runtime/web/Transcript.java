package dev.stockade.runtime.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.json.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What the web chat shows of a thread's stored messages, one rule for the page and for the live stream: what
 * people wrote, delivered replies and notices always; intermediate text steps and tool steps only while verbose is
 * on (they are stored either way, marked internal).
 */
final class Transcript {
    /** Most characters of a tool's input or output shown; the whole stays in the thread. */
    static final int TOOL_TEXT = 2000;

    /** How an entry is shown. */
    enum Kind {
        /** A person's message. */
        USER("user"),
        /** A delivered text step of the agent (a reply, or a webhook or heartbeat delivery). */
        REPLY("reply"),
        /** An intermediate text step (verbose only). */
        STEP("step"),
        /** A tool the agent called, with its input (verbose only). */
        TOOL_CALL("tool-call"),
        /** What a tool answered (verbose only). */
        TOOL_RESULT("tool-result"),
        /** A notice of the runtime (a failed turn). */
        NOTICE("notice");

        final String css;

        Kind(String css) {
            this.css = css;
        }
    }

    /** One shown entry; {@code error} marks a failed tool step. */
    record Entry(long id, Kind kind, String text, boolean error) {
    }

    private Transcript() {
    }

    /** The entry {@code m} shows as, or empty when it is hidden under the current {@code verbose}. */
    static Optional<Entry> entry(Conversations.Message m, boolean verbose) {
        switch (m.role()) {
            case "user":
                return Optional.of(new Entry(m.id(), Kind.USER, m.content(), false));
            case "notice":
                return Optional.of(new Entry(m.id(), Kind.NOTICE, m.content(), false));
            case "assistant":
                if (!m.internal()) {
                    return Optional.of(new Entry(m.id(), Kind.REPLY, m.content(), false));
                }
                return verbose ? Optional.of(new Entry(m.id(), Kind.STEP, m.content(), false)) : Optional.empty();
            case "tool_use":
            case "tool_result":
                return verbose ? Optional.of(tool(m)) : Optional.empty();
            default:
                return Optional.empty();
        }
    }

    private static Entry tool(Conversations.Message m) {
        JsonNode n;
        try {
            n = StrictJson.object(m.content().getBytes(StandardCharsets.UTF_8));
        } catch (MalformedJson e) {
            return new Entry(m.id(), Kind.NOTICE, "(a stored tool step that does not read back as JSON)", true);
        }
        if (m.role().equals("tool_use")) {
            return new Entry(m.id(), Kind.TOOL_CALL, n.path("name").asText("?") + " "
                    + clip(n.path("input").toString()), false);
        }
        return new Entry(m.id(), Kind.TOOL_RESULT, clip(n.path("output").asText("")), n.path("error").asBoolean());
    }

    private static String clip(String s) {
        return s.length() <= TOOL_TEXT ? s : s.substring(0, TOOL_TEXT) + " … (" + s.length() + " characters)";
    }

    /** The entry as one list item of the page; its text escaped. */
    static String html(Entry e) {
        return "<li class=\"msg " + e.kind().css + (e.error() ? " error" : "") + "\" data-id=\"" + e.id() + "\">"
                + Html.text(e.text()) + "</li>";
    }
}
