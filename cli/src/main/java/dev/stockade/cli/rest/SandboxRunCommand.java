package dev.stockade.cli.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code stockade sandbox run}: create a sandbox, wait until it runs, run one command in it as {@code exec} does and
 * end with that command's exit status; {@code --rm} deletes the sandbox afterwards, also after a failure or Ctrl-C.
 * It composes the platform's create, get and exec; it adds no endpoint.
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Create a sandbox (from -f FILE, or from the"
        + " flags: cpu 500m, memory 512Mi, auto-stop 30m unless --rm), wait until it runs, run COMMAND in it and exit"
        + " with its status. Without --rm the sandbox stays and its id is printed on standard error.")
public final class SandboxRunCommand implements Callable<Integer> {
    static final String DEFAULT_CPU = "500m";
    static final String DEFAULT_MEMORY = "512Mi";
    static final String DEFAULT_AUTO_STOP = "30m";
    private static final long FIRST_POLL_MS = 10;
    private static final long LAST_POLL_MS = 500;

    @ParentCommand
    SandboxCommand sandbox;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "The sandbox as YAML or JSON (as `sandbox"
            + " create -f`); excludes the flags below.")
    String file;

    @Option(names = "--name", paramLabel = "NAME", description = "Default: run- and 8 random hex digits.")
    String name;

    @Option(names = "--cpu", paramLabel = "CPU", description = "Default: " + DEFAULT_CPU + ".")
    String cpu;

    @Option(names = "--memory", paramLabel = "MEMORY", description = "Default: " + DEFAULT_MEMORY + ".")
    String memory;

    @Option(names = "--image", paramLabel = "IMAGE", description = "Default: the installation's.")
    String image;

    @Option(names = "--policy", paramLabel = "POLICY_ID", description = "A policy to bind (repeatable).")
    List<String> policies;

    @Option(names = "--auto-stop", paramLabel = "DURATION", description = "Stop the idle sandbox after this long"
            + " (30m, 12h); default " + DEFAULT_AUTO_STOP + " for a kept sandbox, none with --rm.")
    String autoStop;

    @Option(names = "--rm", description = "Delete the sandbox when the command ends, fails or is interrupted.")
    boolean remove;

    @Option(names = {"-i", "--stdin"}, description = "Send this process's standard input to the command.")
    boolean stdin;

    @Option(names = {"-t", "--tty"}, description = "Run the command on a terminal of this terminal's size.")
    boolean tty;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "180", description = "How long to wait for"
            + " the sandbox to run (default 180).")
    int timeout;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "After --: the command and its arguments;"
            + " none runs the sandbox's shell.")
    List<String> command;

    @Mixin
    ApiOptions api;

    @Spec
    CommandSpec spec;

    /** The create body made from the flags; absent fields are left to the platform. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record NewSandbox(String name, String cpu, String memory, String image, List<String> policies, String autoStop) {
    }

    @Override
    public Integer call() {
        Output out = api.output();
        String[] id = {null};
        ApiClient[] client = {null};
        int exit = ApiOptions.guard(out, () -> {
            client[0] = api.client(true);
            id[0] = create(client[0]).path("id").asText();
        });
        if (exit != Exit.OK) {
            return exit;
        }
        Thread interrupted = new Thread(() -> delete(client[0], id[0], out), "sandbox-run-rm");
        if (remove) {
            Runtime.getRuntime().addShutdownHook(interrupted); // Ctrl-C while waiting or running
        }
        out.note("sandbox " + id[0] + (remove ? " (deleted when the command ends)" : " (kept: `stockade sandbox"
                + " shell --project " + sandbox.project + " " + id[0] + "` reaches it, `sandbox delete` removes it)"));
        try {
            exit = ApiOptions.guard(out, () -> awaitRunning(client[0], id[0], out));
            return exit != Exit.OK ? exit : sandbox.run(id[0], command, stdin, tty, api);
        } finally {
            if (remove && unhook(interrupted)) {
                delete(client[0], id[0], out);
            }
        }
    }

    private JsonNode create(ApiClient client) {
        if (timeout < 1) {
            throw Failure.usage("--timeout must be at least 1 second");
        }
        if (file != null) {
            boolean flags = name != null || cpu != null || memory != null || image != null || policies != null
                    || autoStop != null;
            if (flags) {
                throw Failure.usage("give -f FILE or the sandbox flags (--name, --cpu, --memory, --image, --policy,"
                        + " --auto-stop), not both");
            }
            String text = GovernanceFiles.read(file, api.in());
            return client.sendText("POST", sandbox.base(), GovernanceFiles.contentType(file, text), text);
        }
        NewSandbox body = new NewSandbox(name != null ? name : "run-" + UUID.randomUUID().toString().substring(0, 8),
                cpu != null ? cpu : DEFAULT_CPU, memory != null ? memory : DEFAULT_MEMORY, image, policies,
                autoStop != null ? autoStop : remove ? null : DEFAULT_AUTO_STOP);
        return client.post(sandbox.base(), body);
    }

    /**
     * Polls the sandbox until it runs, first often (a local start takes tens of milliseconds), then every half second;
     * a failed or stopped sandbox, or the timeout, ends the wait.
     */
    private void awaitRunning(ApiClient client, String id, Output out) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(timeout));
        String last = "";
        long pause = FIRST_POLL_MS;
        while (true) {
            JsonNode s = client.get(sandbox.one(id));
            String state = s.path("state").asText();
            if (state.equals("running")) {
                return;
            }
            if (state.equals("error") || state.equals("stopped")) {
                throw Failure.refused("sandbox " + Text.safe(id) + " is " + Text.safe(state)
                        + " instead of running: " + Text.safe(s.path("detail").asText("no detail")));
            }
            if (!state.equals(last)) {
                out.note("sandbox " + id + " is " + state + "...");
                last = state;
            }
            if (Instant.now().isAfter(deadline)) {
                throw Failure.usage("sandbox " + Text.safe(id) + " did not run within " + timeout
                        + " seconds (it is " + Text.safe(state) + "); raise --timeout");
            }
            try {
                Thread.sleep(pause); // the platform has no watch for one sandbox: poll, bounded by the deadline
                pause = Math.min(pause * 2, LAST_POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw Failure.usage("interrupted");
            }
        }
    }

    /** Deletes the sandbox; a failure is reported, since a sandbox left behind keeps costing. */
    private void delete(ApiClient client, String id, Output out) {
        int status = ApiOptions.guard(out, () -> client.delete(sandbox.one(id)));
        if (status != Exit.OK) {
            out.note("sandbox " + id + " was not deleted: delete it with `stockade sandbox delete --project "
                    + sandbox.project + " " + id + "`");
        }
    }

    /** False when the JVM is already exiting: the hook then deletes the sandbox itself. */
    private static boolean unhook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
            return true;
        } catch (IllegalStateException exiting) {
            return false;
        }
    }
}
