package dev.stockade.runtime.webhook;

import dev.stockade.runtime.channel.DeliverTo;
import dev.stockade.runtime.store.Store;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Subscriptions, the receiver toggle and the durable queue of accepted runs, all in SQLite. */
public final class WebhookStore {
    /** Pending runs (accepted, not finished) allowed per subscription; one more gets 429. */
    public static final int MAX_PENDING = 10;
    private static final String RECEIVER_FLAG = "webhooks.receiver.enabled";

    /** One accepted run. */
    public record Run(long seq, String id, String webhook, String event, String payload, String status,
            String outcome) {
    }

    /** What a delivery is checked against before anything else: the receiver toggle and the named subscription. */
    public record Gate(boolean receiverEnabled, Subscription subscription) {
    }

    private final Store store;

    public WebhookStore(Store store) {
        this.store = store;
    }

    public boolean receiverEnabled() throws SQLException {
        return "true".equals(store.one("SELECT value FROM kv WHERE key = ?", rs -> rs.getString(1), RECEIVER_FLAG));
    }

    public void setReceiverEnabled(boolean on) throws SQLException {
        store.update("INSERT INTO kv(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                RECEIVER_FLAG, Boolean.toString(on));
    }

    /**
     * The receiver toggle and subscription {@code name} (null when absent), read in one transaction in the intake
     * lane: a delivery's checks wait for no run step.
     */
    public Gate gate(String name) throws SQLException {
        return store.tx(Store.Lane.INTAKE, c -> new Gate(
                "true".equals(first(Store.query(c, "SELECT value FROM kv WHERE key = ?", rs -> rs.getString(1),
                        RECEIVER_FLAG))),
                first(Store.query(c, "SELECT * FROM webhooks WHERE name = ?", WebhookStore::row, name))));
    }

    private static <T> T first(List<T> rows) {
        return rows.isEmpty() ? null : rows.get(0);
    }

    public List<Subscription> list() throws SQLException {
        return store.query("SELECT * FROM webhooks ORDER BY name", WebhookStore::row);
    }

    public Subscription get(String name) throws SQLException {
        return store.one("SELECT * FROM webhooks WHERE name = ?", WebhookStore::row, name);
    }

    /** Inserts a new subscription; false when the name is taken. */
    public boolean create(Subscription s) throws SQLException {
        return store.tx(c -> {
            if (!Store.query(c, "SELECT 1 FROM webhooks WHERE name = ?", rs -> 1, s.name()).isEmpty()) {
                return false;
            }
            Store.update(c, "INSERT INTO webhooks (name, description, events, deliver_to, deliver_only, prompt, "
                    + "active, created_at) VALUES (?,?,?,?,?,?,?,?)", s.name(), s.description(),
                    String.join(",", s.events()), s.deliverTo().wire(), s.deliverOnly() ? 1 : 0, s.prompt(),
                    s.active() ? 1 : 0, Instant.now().toString());
            return true;
        });
    }

    /** Replaces an existing subscription's fields (the name stays). */
    public void update(Subscription s) throws SQLException {
        store.update("UPDATE webhooks SET description = ?, events = ?, deliver_to = ?, deliver_only = ?, prompt = ?, "
                + "active = ? WHERE name = ?", s.description(), String.join(",", s.events()), s.deliverTo().wire(),
                s.deliverOnly() ? 1 : 0, s.prompt(), s.active() ? 1 : 0, s.name());
    }

    public boolean delete(String name) throws SQLException {
        return store.update("DELETE FROM webhooks WHERE name = ?", name) > 0;
    }

    private static Subscription row(ResultSet rs) throws SQLException {
        return new Subscription(rs.getString("name"), rs.getString("description"),
                Subscription.parseEvents(rs.getString("events")), DeliverTo.parse(rs.getString("deliver_to")),
                rs.getInt("deliver_only") != 0, rs.getString("prompt"), rs.getInt("active") != 0);
    }

    /**
     * Accepts a run durably: counts the subscription's unfinished runs and inserts the new one in the
     * same transaction, so the bound holds under any concurrency. Returns the run id, or {@code null}
     * when {@link #MAX_PENDING} runs are already pending. The row is committed before this returns. It takes the
     * connection in the intake lane, before any waiting run step.
     */
    public String accept(String webhook, String event, String payload) throws SQLException {
        return store.tx(Store.Lane.INTAKE, c -> {
            int open = Store.query(c, "SELECT count(*) FROM webhook_runs WHERE webhook = ? AND status IN "
                    + "('pending','running')", rs -> rs.getInt(1), webhook).get(0);
            if (open >= MAX_PENDING) {
                return null;
            }
            String id = UUID.randomUUID().toString();
            Store.update(c, "INSERT INTO webhook_runs (id, webhook, event, payload, status, created_at) "
                    + "VALUES (?,?,?,?,'pending',?)", id, webhook, event, payload, Instant.now().toString());
            return id;
        });
    }

    /** The oldest unfinished run of {@code webhook} (a run left running by a crash comes first). */
    public Run nextOpen(String webhook) throws SQLException {
        return store.one("SELECT * FROM webhook_runs WHERE webhook = ? AND status IN ('pending','running') "
                + "ORDER BY seq LIMIT 1", WebhookStore::runRow, webhook);
    }

    /** Subscriptions that have unfinished runs (to resume after a restart). */
    public List<String> withOpenRuns() throws SQLException {
        return store.query("SELECT DISTINCT webhook FROM webhook_runs WHERE status IN ('pending','running')",
                rs -> rs.getString(1));
    }

    /**
     * Marks {@code run} running and reads its subscription (null when deleted) in one transaction: a run step fewer
     * waiting for the connection.
     */
    public Subscription start(Run run) throws SQLException {
        return store.tx(c -> {
            Store.update(c, "UPDATE webhook_runs SET status = 'running' WHERE id = ?", run.id());
            return first(Store.query(c, "SELECT * FROM webhooks WHERE name = ?", WebhookStore::row, run.webhook()));
        });
    }

    /** Finishes a run as {@code done} or {@code failed} with a short outcome (never payload content). */
    public void finish(String id, boolean ok, String outcome) throws SQLException {
        store.update("UPDATE webhook_runs SET status = ?, outcome = ?, finished_at = ? WHERE id = ?",
                ok ? "done" : "failed", outcome, Instant.now().toString(), id);
    }

    public List<Run> runs(String webhook) throws SQLException {
        return store.query("SELECT * FROM webhook_runs WHERE webhook = ? ORDER BY seq", WebhookStore::runRow, webhook);
    }

    public Run run(String id) throws SQLException {
        return store.one("SELECT * FROM webhook_runs WHERE id = ?", WebhookStore::runRow, id);
    }

    private static Run runRow(ResultSet rs) throws SQLException {
        return new Run(rs.getLong("seq"), rs.getString("id"), rs.getString("webhook"), rs.getString("event"),
                rs.getString("payload"), rs.getString("status"), rs.getString("outcome"));
    }
}
