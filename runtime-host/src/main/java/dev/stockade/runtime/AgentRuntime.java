package dev.stockade.runtime;

import dev.stockade.runtime.agent.Agent;
import dev.stockade.runtime.agent.Compactor;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.Documents;
import dev.stockade.runtime.agent.Memory;
import dev.stockade.runtime.agent.ModelCatalog;
import dev.stockade.runtime.agent.PublicLinks;
import dev.stockade.runtime.agent.Shell;
import dev.stockade.runtime.agent.Skills;
import dev.stockade.runtime.agent.SystemPrompt;
import dev.stockade.runtime.agent.Toolbox;
import dev.stockade.runtime.channel.Broadcast;
import dev.stockade.runtime.channel.SlackDestinations;
import dev.stockade.runtime.channel.slack.SlackAdapter;
import dev.stockade.runtime.channel.slack.SlackCredentials;
import dev.stockade.runtime.channel.slack.SlackRefused;
import dev.stockade.runtime.channel.voice.VoiceChannel;
import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.runtime.http.HttpServer;
import dev.stockade.runtime.http.Router;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import dev.stockade.runtime.observe.Tracing;
import dev.stockade.runtime.provider.ChatModel;
import dev.stockade.runtime.provider.ProviderHttp;
import dev.stockade.runtime.store.AgentProfile;
import dev.stockade.runtime.store.AgentStore;
import dev.stockade.runtime.store.Store;
import dev.stockade.runtime.web.WebUi;
import dev.stockade.runtime.webhook.RunQueue;
import dev.stockade.runtime.webhook.WebhookAdmin;
import dev.stockade.runtime.webhook.WebhookReceiver;
import dev.stockade.runtime.webhook.WebhookStore;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The assembled runtime: store, agent, channels, webhook receiver, schedules and the HTTP server. */
public final class AgentRuntime implements AutoCloseable {
    /** Webhook runs executing at once, across subscriptions. */
    static final int RUN_THREADS = 4;
    private final Store store;
    private final HttpServer server;
    private final List<ExecutorService> pools;
    private final Schedules schedules;
    private final AgentProfile profile;
    private final Telemetry telemetry;
    private final Tracing tracing;
    private AutoCloseable slack = () -> { };
    private VoiceChannel voice;

    private AgentRuntime(Store store, HttpServer server, List<ExecutorService> pools, Schedules schedules,
            AgentProfile profile, Telemetry telemetry, Tracing tracing) {
        this.store = store;
        this.server = server;
        this.pools = pools;
        this.schedules = schedules;
        this.profile = profile;
        this.telemetry = telemetry;
        this.tracing = tracing;
    }

    /** Opens the database (seeding the agent on first boot), binds the server and resumes pending runs. */
    public static AgentRuntime start(RuntimeConfig cfg, String host) throws Exception {
        return start(cfg, host, true);
    }

    /** As {@link #start(RuntimeConfig, String)}; {@code timers} false leaves heartbeat and cron to explicit ticks. */
    public static AgentRuntime start(RuntimeConfig cfg, String host, boolean timers) throws Exception {
        DatabaseImport.applyStaged(cfg.databaseFile());
        Store store = Store.open(cfg.databaseFile());
        AgentStore agents = new AgentStore(store);
        AgentProfile profile = agents.seed(cfg, w -> Log.warn("seed.settings_file", "detail", w));
        ProviderHttp http = new ProviderHttp(4, 500);
        ChatModel chat = Providers.chat(cfg, http);
        Conversations conversations = new Conversations(store);
        Documents docs = new Documents(store);
        Memory memory = new Memory(store, Providers.embedder(cfg, http));
        Telemetry telemetry = Telemetry.of(cfg.settings().nonBlank("OTEL_EXPORTER_OTLP_ENDPOINT"),
                cfg.value("OTEL_EXPORTER_OTLP_API_KEY"), cfg.value("DEPLOYMENT_ENVIRONMENT"), profile.id());
        Tracing tracing = Tracing.langfuse(cfg.value("LANGFUSE_BASE_URL"), cfg.value("LANGFUSE_PUBLIC_KEY"),
                cfg.value("LANGFUSE_SECRET_KEY"), profile.id());
        PublicLinks links = new PublicLinks(cfg.publicUrl());
        VoiceChannel voice = VoiceChannel.configure(cfg, () -> wakeWords(agents), telemetry);
        Agent agent = agent(cfg, chat, conversations, agents, new SystemPrompt(docs, skills(cfg), links), memory,
                telemetry, tracing, voice);
        voice.serve(agent, conversations);
        ExecutorService background = daemonPool("agent-background", 0);
        // Runs of different subscriptions proceed in parallel, but only a few at once, so that a burst of
        // runs cannot starve webhook intake of CPU and of the database.
        ExecutorService runs = daemonPool("webhook-run", RUN_THREADS);
        Broadcast broadcast = new Broadcast(conversations, new SlackDestinations(store), links);
        WebhookStore webhooks = new WebhookStore(store);
        RunQueue queue = new RunQueue(webhooks, broadcast, conversations, agent, runs, telemetry);
        Schedules schedules = new Schedules(store, agents, agent, chat, conversations, broadcast,
                cfg.endpoints().classificationModel());
        Router router = new Router();
        new AgentRoutes(agents, agent, conversations, docs, memory, background).routes(router);
        router.add("POST", "/agents/import", new DatabaseImport(cfg.databaseFile())::post);
        router.add("POST", "/agents/webhooks/{name}", new WebhookReceiver(webhooks, queue, broadcast, telemetry)::handle);
        new WebhookAdmin(webhooks).routes(router);
        new CronRoutes(schedules).routes(router);
        voice.routes(router);
        new WebUi(agents, agent, conversations, docs, memory, webhooks, new SlackDestinations(store)).routes(router);
        AutoCloseable slack = slack(SlackCredentials.from(cfg::value), agent, conversations, broadcast, background,
                store);
        HttpServer server = HttpServer.start(host, cfg.port(), router);
        background.execute(() -> warm(memory)); // the first memory_search need not build the indexes
        queue.resumeAll();
        if (timers) {
            schedules.start();
        }
        AgentRuntime rt = new AgentRuntime(store, server, List.of(background, runs), schedules, profile, telemetry,
                tracing);
        rt.slack = slack;
        rt.voice = voice;
        return rt;
    }

    /**
     * Starts the Slack channel only when both tokens are set (Bolt is not even loaded otherwise); a refused start
     * closes the database and stops the runtime, as a misconfigured channel should not look like a working agent.
     */
    private static AutoCloseable slack(SlackCredentials creds, Agent agent, Conversations conversations,
            Broadcast broadcast, ExecutorService turns, Store store) throws Exception {
        if (!creds.configured()) {
            creds.missingHalf().ifPresent(v -> Log.warn("slack.disabled", "reason", v + " is not set"));
            return () -> { };
        }
        try {
            return SlackAdapter.start(creds, agent, conversations, broadcast, turns);
        } catch (SlackRefused e) {
            Log.error("slack.refused", "reason", e.getMessage());
            turns.shutdownNow();
            store.close();
            throw e;
        }
    }

    private static Skills skills(RuntimeConfig cfg) {
        return new Skills(Path.of(cfg.value("AGENT_SKILLS_DIR")), Path.of(cfg.value("AGENT_PLUGINS_DIR")));
    }

    private static Agent agent(RuntimeConfig cfg, ChatModel chat, Conversations conversations, AgentStore agents,
            SystemPrompt prompt, Memory memory, Telemetry telemetry, Tracing tracing, VoiceChannel voice) {
        ModelCatalog catalog = ModelCatalog.load(cfg.settings().nonBlank("MODEL_CATALOG_URL"),
                cfg.contextWindowTokens());
        Shell shell = new Shell(Path.of(cfg.value("SHELL_WORKSPACE_ROOT")), 120, cfg.childEnvironment());
        Toolbox tools = new Toolbox(agents, prompt.docs(), memory, shell, prompt.skills(), voice.agentTools());
        Compactor compactor = new Compactor(conversations, chat, catalog, cfg.compactionThresholdPercent(),
                cfg.compactionTailMessages());
        return new Agent(chat, conversations, agents, prompt, tools, compactor, cfg.endpoints().mainModel(),
                telemetry, tracing);
    }

    /** The words that address the agent in a call: its current name. */
    private static List<String> wakeWords(AgentStore agents) {
        try {
            return List.of(agents.profile().name());
        } catch (java.sql.SQLException e) {
            return List.of();
        }
    }

    private static void warm(Memory memory) {
        try {
            long t0 = System.nanoTime();
            memory.warm();
            Log.info("memory.indexed", "entries", memory.count(), "ms", (System.nanoTime() - t0) / 1_000_000);
        } catch (Exception e) {
            Log.warn("memory.index_failed", "error", e.getClass().getSimpleName());
        }
    }

    /** A pool of daemon threads; {@code size} 0 for a cached pool. */
    private static ExecutorService daemonPool(String name, int size) {
        java.util.concurrent.ThreadFactory f = r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
        return size == 0 ? Executors.newCachedThreadPool(f) : Executors.newFixedThreadPool(size, f);
    }

    public int port() {
        return server.port();
    }

    public Store store() {
        return store;
    }

    /** The agent as it was after seeding at this start. */
    public AgentProfile profileAtStart() {
        return profile;
    }

    public Schedules schedules() {
        return schedules;
    }

    @Override
    public void close() {
        schedules.close();
        voice.close();
        try {
            slack.close();
        } catch (Exception e) {
            Log.warn("slack.close", "error", e.getClass().getSimpleName());
        }
        server.close();
        telemetry.close();
        tracing.close();
        pools.forEach(ExecutorService::shutdownNow);
        try {
            for (ExecutorService pool : pools) {
                pool.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
            }
            store.close();
        } catch (Exception e) {
            Log.warn("runtime.close", "error", e.getClass().getSimpleName());
        }
    }
}
