package dev.stockade.runtime;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.stockade.runtime.agent.Agent;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.DocumentKind;
import dev.stockade.runtime.channel.Broadcast;
import dev.stockade.runtime.channel.DeliverTo;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.provider.ChatModel;
import dev.stockade.runtime.provider.Item;
import dev.stockade.runtime.provider.ModelRequest;
import dev.stockade.runtime.store.AgentProfile;
import dev.stockade.runtime.store.AgentStore;
import dev.stockade.runtime.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The heartbeat and cron tasks. A tick (every 15 s) runs what is due: the heartbeat every
 * {@code heartbeatIntervalMinutes} (its own model, else the main one) behind the classification model's
 * DELIVER/SUPPRESS gate, and each cron task whose standard five-field expression fired since its last run.
 */
public final class Schedules implements AutoCloseable {
    /** A cron task. */
    public record CronTask(String id, String expression, String prompt, String model, boolean enabled,
            String lastRun, String createdAt) {
    }

    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private final Store store;
    private final AgentStore agents;
    private final Agent agent;
    private final ChatModel chat;
    private final Conversations conversations;
    private final Broadcast broadcast;
    private final String gateModel;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "schedules");
        t.setDaemon(true);
        return t;
    });

    Schedules(Store store, AgentStore agents, Agent agent, ChatModel chat, Conversations conversations,
            Broadcast broadcast, String gateModel) {
        this.store = store;
        this.agents = agents;
        this.agent = agent;
        this.chat = chat;
        this.conversations = conversations;
        this.broadcast = broadcast;
        this.gateModel = gateModel;
    }

    void start() {
        timer.scheduleWithFixedDelay(() -> {
            try {
                tick(Instant.now());
            } catch (Exception e) {
                Log.error("schedules.tick_failed", "error", e.getClass().getSimpleName());
            }
        }, 15, 15, TimeUnit.SECONDS);
    }

    /** Parses a standard five-field cron expression; throws IllegalArgumentException when invalid. */
    public static Cron parse(String expression) {
        Cron c = PARSER.parse(expression);
        c.validate();
        return c;
    }

    /** Adds a cron task; the expression is validated. */
    public CronTask add(String expression, String prompt, String model) throws Exception {
        parse(expression);
        String id = UUID.randomUUID().toString();
        store.update("INSERT INTO cron_tasks (id, expression, prompt, model, created_at) VALUES (?,?,?,?,?)", id,
                expression, prompt, model, Instant.now().toString());
        return tasks().stream().filter(t -> t.id().equals(id)).findFirst().orElseThrow();
    }

    public List<CronTask> tasks() throws Exception {
        return store.query("SELECT * FROM cron_tasks ORDER BY created_at, id", rs -> new CronTask(rs.getString("id"),
                rs.getString("expression"), rs.getString("prompt"), rs.getString("model"), rs.getInt("enabled") != 0,
                rs.getString("last_run"), rs.getString("created_at")));
    }

    public boolean delete(String id) throws Exception {
        return store.update("DELETE FROM cron_tasks WHERE id = ?", id) > 0;
    }

    /** Runs what is due at {@code now}. */
    public void tick(Instant now) throws Exception {
        AgentProfile p = agents.profile();
        ZoneId zone = ZoneId.of(p.timezone());
        for (CronTask t : tasks()) {
            if (t.enabled() && due(t, now, zone)) {
                store.update("UPDATE cron_tasks SET last_run = ? WHERE id = ?", now.toString(), t.id());
                runCron(t, p);
            }
        }
        if (p.heartbeatIntervalMinutes() > 0) {
            String last = agents.flag("heartbeat.last");
            if (last == null || Instant.parse(last).plus(Duration.ofMinutes(p.heartbeatIntervalMinutes()))
                    .compareTo(now) <= 0) {
                agents.setFlag("heartbeat.last", now.toString());
                heartbeat(p);
            }
        }
    }

    static boolean due(CronTask t, Instant now, ZoneId zone) {
        ZonedDateTime since = Instant.parse(t.lastRun() != null ? t.lastRun() : t.createdAt()).atZone(zone);
        Optional<ZonedDateTime> next = ExecutionTime.forCron(parse(t.expression())).nextExecution(since);
        return next.isPresent() && !next.get().toInstant().isAfter(now);
    }

    private void runCron(CronTask t, AgentProfile p) {
        String model = t.model() != null ? t.model() : p.cronModelOverride();
        String thread = "cron:" + t.id();
        try {
            conversations.createWithId(thread, "cron", "Scheduled task", true);
            String reply = agent.run(thread, t.prompt(), model);
            broadcast.deliver(DeliverTo.ALL, "cron:" + t.id(), "Scheduled task", reply);
            Log.info("cron.done", "task", t.id());
        } catch (Exception e) {
            Log.warn("cron.failed", "task", t.id(), "error", e.getClass().getSimpleName());
        }
    }

    /** One heartbeat: the agent checks in; the gate model decides whether the result is worth delivering. */
    public boolean heartbeat(AgentProfile p) {
        try {
            conversations.createWithId("heartbeat", "heartbeat", "Heartbeat", true);
            String config = new dev.stockade.runtime.agent.Documents(store).read(DocumentKind.HEARTBEAT_CONFIG);
            String reply = agent.run("heartbeat", "Heartbeat check-in. Follow your Heartbeat config:\n" + config,
                    p.heartbeatModelOverride());
            String verdict = chat.complete(new ModelRequest(gateModel, "You gate proactive messages. Answer with "
                    + "exactly one word: DELIVER if the message below is worth interrupting the user for, else "
                    + "SUPPRESS.", List.of(new Item.UserText(reply)), List.of(), 5), s -> { }).text();
            boolean deliver = verdict.strip().toUpperCase(Locale.ROOT).startsWith("DELIVER");
            Log.info("heartbeat.gated", "deliver", deliver);
            if (deliver) {
                broadcast.deliver(DeliverTo.ALL, "heartbeat", "Heartbeat", reply);
            }
            return deliver;
        } catch (Exception e) {
            Log.warn("heartbeat.failed", "error", e.getClass().getSimpleName());
            return false;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
