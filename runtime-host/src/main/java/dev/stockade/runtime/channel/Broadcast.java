package dev.stockade.runtime.channel;

import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.PublicLinks;
import dev.stockade.runtime.observe.Log;
import java.sql.SQLException;

/**
 * Delivers an outbound message (a webhook result, a heartbeat alert) to its target and stores it
 * there: All channels = web chat plus Slack, Chat = web chat, Slack = the Slack destination's own
 * hidden thread, falling back to the web thread with a warning when no Slack destination is linked.
 */
public final class Broadcast {
    /** Posts to Slack; the Slack adapter provides it. Absent until the adapter runs. */
    @FunctionalInterface
    public interface SlackSender {
        void post(SlackDestinations.Destination to, String text) throws Exception;
    }

    private final Conversations conversations;
    private final SlackDestinations slack;
    private final PublicLinks links;
    private volatile SlackSender sender;

    public Broadcast(Conversations conversations, SlackDestinations slack, PublicLinks links) {
        this.conversations = conversations;
        this.slack = slack;
        this.links = links;
    }

    /** Installs the Slack adapter's sender. */
    public void slackSender(SlackSender s) {
        this.sender = s;
    }

    /**
     * Delivers {@code text} from {@code source} (e.g. {@code webhook:github}) to {@code target}.
     * The web copy goes to the source's well-known web thread titled {@code title}.
     */
    public void deliver(DeliverTo target, String source, String title, String text) throws SQLException {
        boolean web = target != DeliverTo.SLACK;
        String thread = "web:" + source;
        if (target != DeliverTo.CHAT) {
            SlackDestinations.Destination d = slack.broadcastTarget();
            if (d == null && target == DeliverTo.SLACK) {
                Log.warn("delivery.slack_fallback", "source", source, "reason", "no Slack destination linked");
                web = true;
            } else if (d != null) {
                // All channels: the Slack copy points at the web copy (a link, or what to open without one).
                toSlack(d, source, web ? text + "\n\n" + links.pointer(thread, title) : text);
            }
        }
        if (web) {
            conversations.createWithId(thread, "web", title, false);
            conversations.append(thread, "assistant", text, false);
        }
    }

    private void toSlack(SlackDestinations.Destination d, String source, String text) throws SQLException {
        String thread = d.threadId() != null ? d.threadId() : "slack:" + d.id();
        conversations.createWithId(thread, "slack", "Slack " + d.kind(), true);
        conversations.append(thread, "assistant", text, false);
        SlackSender s = sender;
        if (s == null) {
            Log.warn("delivery.slack_adapter_absent", "source", source, "destination", d.id());
            return;
        }
        try {
            s.post(d, text);
        } catch (Exception e) {
            Log.error("delivery.slack_failed", "source", source, "error", e.getClass().getSimpleName());
        }
    }
}
