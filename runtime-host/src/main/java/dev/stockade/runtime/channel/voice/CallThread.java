package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.observe.Log;
import java.net.URI;
import java.sql.SQLException;

/**
 * A call stored as a thread of the one agent (channel {@code voice}, in the web recents list like any chat): what was
 * said to the agent, what it answered, and the tools it ran. Only addressed turns are kept; the rest of the meeting
 * was not said to the agent.
 */
final class CallThread {
    private final Conversations conversations;
    private final String id;

    private CallThread(Conversations conversations, String id) {
        this.conversations = conversations;
        this.id = id;
    }

    /** Creates the thread of a call to {@code meeting}, titled by the meeting's host and path (never its query). */
    static CallThread open(Conversations conversations, URI meeting) throws VoiceRefused {
        try {
            return new CallThread(conversations, conversations.create("voice", "Call " + meeting.getHost()
                    + (meeting.getPath() == null ? "" : meeting.getPath()), false));
        } catch (SQLException e) {
            throw new VoiceRefused("could not store the call as a thread: " + e.getClass().getSimpleName());
        }
    }

    String id() {
        return id;
    }

    /** A turn that addressed the agent, as the transcriber heard it. */
    void heard(String transcript) {
        append("user", transcript);
    }

    /** What the agent said, as the realtime model transcribed its own audio. */
    void said(String transcript) {
        append("assistant", transcript);
    }

    private void append(String role, String text) {
        if (text == null || text.isBlank()) {
            return;
        }
        try {
            conversations.append(id, role, text.strip(), false);
        } catch (SQLException e) {
            // the call goes on; only the record of this turn is lost
            Log.warn("voice.thread_write_failed", "role", role, "error", e.getClass().getSimpleName());
        }
    }
}
