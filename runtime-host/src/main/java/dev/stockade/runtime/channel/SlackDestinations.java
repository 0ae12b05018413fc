package dev.stockade.runtime.channel;

import dev.stockade.runtime.store.Store;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

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

    /** A linked destination as the Channels page lists it: whether it is flagged main, and when it was linked. */
    public record Linked(Destination destination, boolean main, String createdAt) {
    }

    /** Every linked destination, oldest first (the order the team-mode fallback uses). */
    public List<Linked> list() throws SQLException {
        return store.query("SELECT * FROM slack_destinations ORDER BY created_at, rowid", rs -> new Linked(
                new Destination(rs.getString("id"), rs.getString("kind"), rs.getString("slack_id"),
                        rs.getString("thread_id")), rs.getInt("main") != 0, rs.getString("created_at")));
    }

    /**
     * Flags the channel {@code id} as the team-mode main channel, clearing the flag on every other one in the same
     * transaction, so at most one is main; false when {@code id} is not a linked channel (a direct message cannot be).
     */
    public boolean flagMain(String id) throws SQLException {
        return store.tx(c -> {
            if (Store.update(c, "UPDATE slack_destinations SET main = 1 WHERE id = ? AND kind = 'channel'", id) == 0) {
                return false;
            }
            Store.update(c, "UPDATE slack_destinations SET main = 0 WHERE id <> ?", id);
            return true;
        });
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
