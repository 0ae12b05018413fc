package dev.stockade.runtime.channel;

import dev.stockade.runtime.store.Store;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The Slack destinations linked to this agent: a user's direct message (personal mode) or channels
 * (team mode). The Slack adapter links them; delivery only reads them.
 */
public final class SlackDestinations {
    /** A destination and the hidden thread its messages are stored in. */
    public record Destination(String id, String kind, String slackId, String threadId) {
    }

    private final Store store;

    public SlackDestinations(Store store) {
        this.store = store;
    }

    /** Links a destination ({@code kind} is {@code dm} or {@code channel}); returns its id. */
    public String link(String kind, String slackId, boolean main, String threadId) throws SQLException {
        String id = java.util.UUID.randomUUID().toString();
        store.update("INSERT INTO slack_destinations (id, kind, slack_id, main, thread_id, created_at) "
                + "VALUES (?,?,?,?,?,?)", id, kind, slackId, main ? 1 : 0, threadId, Instant.now().toString());
        return id;
    }

    /**
     * Where a broadcast goes on Slack: in team mode (any channel linked) the channel flagged main, else
     * the oldest linked channel; in personal mode the direct message; {@code null} when nothing is linked.
     */
    public Destination broadcastTarget() throws SQLException {
        return store.one("SELECT * FROM slack_destinations ORDER BY CASE WHEN kind = 'channel' AND main = 1 THEN 0 "
                + "WHEN kind = 'channel' THEN 1 ELSE 2 END, created_at, rowid LIMIT 1",
                rs -> new Destination(rs.getString("id"), rs.getString("kind"), rs.getString("slack_id"),
                        rs.getString("thread_id")));
    }
}
