package dev.stockade.runtime;

import dev.stockade.runtime.config.Redaction;
import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.runtime.config.Settings;
import dev.stockade.runtime.tui.TerminalChat;
import dev.stockade.runtime.observe.Log;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stockade runtime [serve|config|tui]}: starts the agent runtime, prints its configuration, or opens the
 * terminal UI on a running one.
 */
@Command(name = "stockade runtime", mixinStandardHelpOptions = true,
        description = "The agent runtime: HTTP server on PORT (3003) with a SQLite database.",
        subcommands = {RuntimeMain.Serve.class, RuntimeMain.Config.class, RuntimeMain.Tui.class})
public final class RuntimeMain implements Runnable {
    @Option(names = "--data-dir", description = "Data home (AGENT_DATA_DIR): holds .env, settings.json, agent.db")
    String dataDir;

    @Override
    public void run() {
        Serve serve = new Serve();
        serve.exitWhenReady = exitWhenReady;
        System.exit(serve.start(this));
    }

    /** {@code serve}'s options given without the subcommand name. */
    @Option(names = "--exit-when-ready", hidden = true)
    boolean exitWhenReady;

    public static void main(String[] args) {
        System.exit(new CommandLine(new RuntimeMain()).execute(args));
    }

    static RuntimeConfig load(RuntimeMain parent) {
        return RuntimeConfig.load(environment(parent), System.getProperty("user.home"));
    }

    private static Map<String, String> environment(RuntimeMain parent) {
        Map<String, String> env = new HashMap<>(System.getenv());
        if (parent.dataDir != null) {
            env.put("AGENT_DATA_DIR", parent.dataDir);
        }
        return env;
    }

    /** Starts the server and runs until stopped. */
    @Command(name = "serve", description = "Start the runtime (the default)")
    static final class Serve implements java.util.concurrent.Callable<Integer> {
        @CommandLine.ParentCommand
        RuntimeMain parent;

        @Option(names = "--exit-when-ready", hidden = true,
                description = "Start, answer one request, stop (builds the class-data archive; measures startup)")
        boolean exitWhenReady;

        @Override
        public Integer call() {
            return start(parent);
        }

        int start(RuntimeMain p) {
            long t0 = System.nanoTime();
            RuntimeConfig cfg = load(p);
            for (String w : cfg.warnings()) {
                Log.warn("config.fallback", "detail", w);
            }
            if (!cfg.problems().isEmpty()) {
                for (String problem : cfg.problems()) {
                    System.err.println("stockade runtime: " + Redaction.urls(problem));
                }
                System.err.println("stockade runtime: " + cfg.problems().size()
                        + " configuration problem(s); not starting (see `stockade runtime config`)");
                return 2;
            }
            try {
                AgentRuntime rt = AgentRuntime.start(cfg, "0.0.0.0");
                Log.info("runtime.ready", "port", rt.port(), "ms", (System.nanoTime() - t0) / 1_000_000,
                        "provider", cfg.provider().wire());
                if (exitWhenReady) {
                    java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + rt.port() + "/agents/profile")).build(),
                            java.net.http.HttpResponse.BodyHandlers.discarding());
                    rt.close();
                    return 0;
                }
                CountDownLatch stop = new CountDownLatch(1);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    rt.close();
                    stop.countDown();
                }));
                stop.await();
                return 0;
            } catch (Exception e) {
                Log.error("runtime.start_failed", "error", e.getClass().getSimpleName());
                System.err.println("stockade runtime: could not start: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()));
                return 1;
            }
        }
    }

    /** Prints the resolved configuration with secrets redacted and each value's source. */
    @Command(name = "config", description = "Print the resolved configuration (secrets redacted) and sources")
    static final class Config implements java.util.concurrent.Callable<Integer> {
        @CommandLine.ParentCommand
        RuntimeMain parent;

        @Override
        public Integer call() {
            RuntimeConfig cfg = load(parent);
            ConfigReport.print(cfg, System.out);
            return cfg.problems().isEmpty() ? 0 : 2;
        }
    }

    /**
     * Opens the terminal UI on a running runtime. It is a client of the HTTP API: the URL comes from {@code --url},
     * else {@code AGENT_HTTP_URL} as the runtime's configuration resolves it (environment, .env, default).
     */
    @Command(name = "tui", description = "Chat with a running runtime in this terminal (AGENT_HTTP_URL)")
    static final class Tui implements java.util.concurrent.Callable<Integer> {
        @CommandLine.ParentCommand
        RuntimeMain parent;

        @Option(names = "--url", paramLabel = "URL", description = "The runtime's URL (default: AGENT_HTTP_URL, "
                + "http://localhost:3003)")
        String url;

        @Override
        public Integer call() {
            String target = url;
            if (target == null) {
                Settings settings = Settings.resolve(environment(parent), System.getProperty("user.home"));
                if (!settings.problems().isEmpty()) {
                    settings.problems().forEach(p -> System.err.println("stockade runtime tui: " + Redaction.urls(p)));
                    return 2;
                }
                target = settings.value("AGENT_HTTP_URL");
            }
            return TerminalChat.run(target, System.err);
        }
    }
}
