package dev.stockade.runtime.agent;

import dev.stockade.runtime.store.Store;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Threads and their messages in SQLite, shared by every channel (web chat, Slack, webhooks, heartbeat,
 * cron): a channel is a thread's origin, not a separate agent.
 */
public final class Conversations {
    /** A thread; {@code hidden} ones (Slack destinations) stay out of the web recents list. */
    public record ThreadInfo(String id, String channel, String title, boolean hidden, String summary) {
    }

    /**
     * A stored message.
     *
     * @param role user, assistant, tool_use, tool_result or notice
     * @param internal an intermediate step not delivered (verbose off)
     * @param compacted folded into the thread's summary; kept for the record, not sent to the model
     */
    public record Message(long id, String threadId, String role, String content, boolean internal,
            boolean compacted) {
    }

    private final Store store;
    // The web chat's open threads: each hears appended messages at once, whatever channel appended them.
    private final List<Consumer<Message>> watchers = new CopyOnWriteArrayList<>();

    public Conversations(Store store) {
        this.store = store;
    }

    /** Creates a thread and returns its id. */
    public String create(String channel, String title, boolean hidden) throws SQLException {
        String id = UUID.randomUUID().toString();
        createWithId(id, channel, title, hidden);
        return id;
    }

    /** Creates the thread {@code id} unless it exists (well-known threads such as a webhook's). */
    public void createWithId(String id, String channel, String title, boolean hidden) throws SQLException {
        store.update("INSERT OR IGNORE INTO threads (id, channel, title, hidden, created_at) VALUES (?,?,?,?,?)",
                id, channel, title, hidden ? 1 : 0, Instant.now().toString());
    }

    public ThreadInfo thread(String id) throws SQLException {
        return store.one("SELECT * FROM threads WHERE id = ?", Conversations::threadRow, id);
    }

    /** Threads for the web recents list: hidden ones left out, newest first. */
    public List<ThreadInfo> recents() throws SQLException {
        return store.query("SELECT * FROM threads WHERE hidden = 0 ORDER BY created_at DESC, id",
                Conversations::threadRow);
    }

    public long append(String threadId, String role, String content, boolean internal) throws SQLException {
        long id = store.tx(c -> {
            Store.update(c, "INSERT INTO messages (thread_id, role, content, internal, created_at) VALUES (?,?,?,?,?)",
                    threadId, role, content, internal ? 1 : 0, Instant.now().toString());
            return Store.query(c, "SELECT last_insert_rowid()", rs -> rs.getLong(1)).get(0);
        });
        Message m = new Message(id, threadId, role, content, internal, false);
        watchers.forEach(w -> w.accept(m));
        return id;
    }

    /**
     * Hands {@code watcher} every message appended after this call, once committed, on the appending thread
     * (so it must only hand the message on); closing the returned handle stops it.
     */
    public AutoCloseable watch(Consumer<Message> watcher) {
        watchers.add(watcher);
        return () -> watchers.remove(watcher);
    }

    /** Every message of a thread in order. */
    public List<Message> messages(String threadId) throws SQLException {
        return store.query("SELECT * FROM messages WHERE thread_id = ? ORDER BY id", Conversations::messageRow,
                threadId);
    }

    /** Messages not yet folded into the summary: what the model sees after the summary. */
    public List<Message> live(String threadId) throws SQLException {
        return store.query("SELECT * FROM messages WHERE thread_id = ? AND compacted = 0 ORDER BY id",
                Conversations::messageRow, threadId);
    }

    /** Replaces the summary and marks messages up to {@code lastFolded} as compacted, in one transaction. */
    public void compact(String threadId, String summary, long lastFolded) throws SQLException {
        store.tx(c -> {
            Store.update(c, "UPDATE threads SET summary = ? WHERE id = ?", summary, threadId);
            Store.update(c, "UPDATE messages SET compacted = 1 WHERE thread_id = ? AND id <= ?", threadId, lastFolded);
            return null;
        });
    }

    private static ThreadInfo threadRow(ResultSet rs) throws SQLException {
        return new ThreadInfo(rs.getString("id"), rs.getString("channel"), rs.getString("title"),
                rs.getInt("hidden") != 0, rs.getString("summary"));
    }

    private static Message messageRow(ResultSet rs) throws SQLException {
        return new Message(rs.getLong("id"), rs.getString("thread_id"), rs.getString("role"),
                rs.getString("content"), rs.getInt("internal") != 0, rs.getInt("compacted") != 0);
    }
}
