package dev.stockade.runtime.channel.slack;

import com.slack.api.methods.MethodsClient;
import com.slack.api.methods.response.conversations.ConversationsRepliesResponse;
import com.slack.api.model.Message;
import com.slack.api.model.event.AppMentionEvent;
import com.slack.api.model.event.MessageEvent;
import dev.stockade.runtime.agent.AgentTask;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.observe.Log;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps a Slack thread onto one stored thread of the agent and answers in it. Slack holds the history: before each
 * turn the thread's messages are re-read from Slack (conversations.replies) and those the agent has not seen, written
 * by other people between its turns, are added; such threads are exempt from compaction.
 */
final class SlackThreads {
    /** Marks a stored user message with its Slack author and timestamp, so a re-read adds each message once. */
    private static final Pattern ORIGIN = Pattern.compile("^\\[slack ([A-Z0-9]+) (\\d+\\.\\d+)\\] ");

    /** One message addressed to the agent: where it was written, its thread root, author and text. */
    record Inbound(String channel, String threadTs, String ts, String user, String text) {
        static Inbound of(MessageEvent e) {
            return new Inbound(e.getChannel(), e.getThreadTs() != null ? e.getThreadTs() : e.getTs(), e.getTs(),
                    e.getUser(), e.getText());
        }

        static Inbound of(AppMentionEvent e) {
            return new Inbound(e.getChannel(), e.getThreadTs() != null ? e.getThreadTs() : e.getTs(), e.getTs(),
                    e.getUser(), e.getText());
        }

        /** The stored thread: one per Slack thread. */
        String threadId() {
            return "slack:" + channel + ":" + threadTs;
        }
    }

    private final MethodsClient bot;
    private final String botUserId;
    private final AgentTask agent;
    private final Conversations conversations;

    SlackThreads(MethodsClient bot, String botUserId, AgentTask agent, Conversations conversations) {
        this.bot = bot;
        this.botUserId = botUserId;
        this.agent = agent;
        this.conversations = conversations;
    }

    /** Runs one turn for {@code in} and posts the reply in its Slack thread; failures are logged, never thrown. */
    void answer(Inbound in) {
        try {
            conversations.createWithId(in.threadId(), "slack", "Slack " + in.channel(), true);
            catchUp(in);
            String reply = agent.run(in.threadId(), origin(in.user(), in.ts()) + in.text(), null);
            if (reply == null || reply.isBlank()) {
                return;
            }
            var r = bot.chatPostMessage(q -> q.channel(in.channel()).threadTs(in.threadTs()).text(reply));
            if (!r.isOk()) {
                Log.error("slack.reply_failed", "channel", in.channel(), "error", r.getError());
            }
        } catch (Exception e) {
            Log.error("slack.turn_failed", "channel", in.channel(), "error", e.getClass().getSimpleName());
            notifyFailure(in);
        }
    }

    /** Adds the thread's messages from other people that the stored thread lacks, oldest first. */
    private void catchUp(Inbound in) throws Exception {
        ConversationsRepliesResponse r = bot.conversationsReplies(q -> q.channel(in.channel()).ts(in.threadTs()));
        if (!r.isOk()) {
            // A thread the bot cannot read (missing history scope) still gets an answer to the message itself.
            Log.warn("slack.history_unavailable", "channel", in.channel(), "error", r.getError());
            return;
        }
        Set<String> seen = seen(in.threadId());
        for (Message m : r.getMessages()) {
            boolean ours = m.getBotId() != null || botUserId.equals(m.getUser());
            if (ours || m.getTs().equals(in.ts()) || seen.contains(m.getTs()) || m.getText() == null) {
                continue;
            }
            conversations.append(in.threadId(), "user", origin(m.getUser(), m.getTs()) + m.getText(), false);
        }
    }

    private Set<String> seen(String threadId) throws Exception {
        Set<String> ts = new HashSet<>();
        List<Conversations.Message> stored = conversations.messages(threadId);
        for (Conversations.Message m : stored) {
            Matcher o = ORIGIN.matcher(m.content());
            if (m.role().equals("user") && o.find()) {
                ts.add(o.group(2));
            }
        }
        return ts;
    }

    private void notifyFailure(Inbound in) {
        try {
            bot.chatPostMessage(q -> q.channel(in.channel()).threadTs(in.threadTs())
                    .text("Sorry, that run failed. Please try again."));
        } catch (Exception e) {
            Log.error("slack.reply_failed", "channel", in.channel(), "error", e.getClass().getSimpleName());
        }
    }

    private static String origin(String user, String ts) {
        return "[slack " + (user == null ? "UNKNOWN" : user) + " " + ts + "] ";
    }
}
