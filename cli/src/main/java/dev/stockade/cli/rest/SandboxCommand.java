package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade sandbox ...}: sandboxes of a project, authored from YAML files. */
@Command(name = "sandbox", mixinStandardHelpOptions = true, description = "Sandboxes of a project: create from"
        + " YAML, start, stop, restart, revisions and their effective policy; exec, run and copy files.",
        subcommands = {SandboxRunCommand.class, SandboxCopyCommand.class})
public final class SandboxCommand extends Group {
    static final List<Output.Column> SANDBOX = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("STATE", "state"), Output.Column.of("REVISION", "activeRevision"),
            Output.Column.of("CPU", "cpu"), Output.Column.of("MEMORY", "memory"), Output.Column.of("DETAIL", "detail"));
    static final List<Output.Column> REVISION = List.of(Output.Column.of("REVISION", "revision"),
            Output.Column.of("ACTIVE", "active"), Output.Column.of("BY", "createdBy"),
            Output.Column.time("CREATED", "createdAt"));

    @Option(names = "--project", paramLabel = "PROJECT_ID", required = true, scope =
            picocli.CommandLine.ScopeType.INHERIT)
    String project;

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a sandbox from a YAML or JSON"
            + " file (name, cpu, memory required; see docs/platform.md).")
    int create(@Option(names = {"-f", "--file"}, paramLabel = "FILE", required = true) String file,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            String text = GovernanceFiles.read(file, api.in());
            out.record(client.sendText("POST", base(), GovernanceFiles.contentType(file, text), text), SANDBOX);
        });
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The project's sandboxes.")
    int list(@Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get(base()), SANDBOX));
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One sandbox.")
    int get(@Parameters(paramLabel = "SANDBOX_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.get(one(id)), SANDBOX));
    }

    @Command(name = "update", mixinStandardHelpOptions = true, description = "Update from a file: policy merges by"
            + " top-level key; timers change without a restart; other fields make a new revision.")
    int update(@Parameters(paramLabel = "SANDBOX_ID") String id,
               @Option(names = {"-f", "--file"}, paramLabel = "FILE", required = true) String file,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            String text = GovernanceFiles.read(file, api.in());
            out.record(client.sendText("PATCH", one(id), GovernanceFiles.contentType(file, text), text), SANDBOX);
        });
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a sandbox and its volume.")
    int delete(@Parameters(paramLabel = "SANDBOX_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete(one(id));
            out.done("deleted sandbox " + id);
        });
    }

    @Command(name = "start", mixinStandardHelpOptions = true, description = "Start a stopped or failed sandbox.")
    int start(@Parameters(paramLabel = "SANDBOX_ID") String id, @Mixin ApiOptions api) {
        return action(id, "start", api);
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop a sandbox (its volume stays).")
    int stop(@Parameters(paramLabel = "SANDBOX_ID") String id, @Mixin ApiOptions api) {
        return action(id, "stop", api);
    }

    @Command(name = "restart", mixinStandardHelpOptions = true, description = "Re-provision the active revision,"
            + " or start a stopped sandbox.")
    int restart(@Parameters(paramLabel = "SANDBOX_ID") String id, @Mixin ApiOptions api) {
        return action(id, "restart", api);
    }

    @Command(name = "revisions", mixinStandardHelpOptions = true, description = "The sandbox's revisions.")
    int revisions(@Parameters(paramLabel = "SANDBOX_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get(one(id) + "/revisions"), REVISION));
    }

    @Command(name = "promote", mixinStandardHelpOptions = true, description = "Make a revision active.")
    int promote(@Parameters(index = "0", paramLabel = "SANDBOX_ID") String id,
                @Parameters(index = "1", paramLabel = "REVISION") int revision, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.post(one(id) + "/revisions/" + revision + "/promote",
                null), SANDBOX));
    }

    @Command(name = "rollback", mixinStandardHelpOptions = true, description = "Make the previously active"
            + " revision active again.")
    int rollback(@Parameters(paramLabel = "SANDBOX_ID") String id, @Mixin ApiOptions api) {
        return action(id, "rollback", api);
    }

    @Command(name = "effective-policy", mixinStandardHelpOptions = true, description = "What the sandbox's proxy"
            + " enforces now, and what its active revision was provisioned with.")
    int effective(@Parameters(paramLabel = "SANDBOX_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.json(client.get(one(id) + "/effective-policy")));
    }

    @Command(name = "exec", mixinStandardHelpOptions = true, description = "Run a command in a running sandbox"
            + " (an auto-stopped one with autoStart starts first); its exit status is this command's.")
    int exec(@Parameters(index = "0", paramLabel = "SANDBOX_ID") String id,
             @Parameters(index = "1..*", paramLabel = "COMMAND", description = "After --: the command and its"
                     + " arguments; none runs the sandbox's shell.") List<String> command,
             @Option(names = {"-i", "--stdin"}, description = "Send this process's standard input to the command.")
             boolean stdin,
             @Option(names = {"-t", "--tty"}, description = "Run the command on a terminal of this terminal's size"
                     + " (stdout and stderr become one stream).") boolean tty,
             @Mixin ApiOptions api) {
        return run(id, command, stdin, tty, api);
    }

    @Command(name = "shell", mixinStandardHelpOptions = true, description = "An interactive shell (or COMMAND) on a"
            + " terminal in the sandbox: this terminal goes raw until it ends, its size follows yours; the exit"
            + " status is the shell's.")
    int shell(@Parameters(index = "0", paramLabel = "SANDBOX_ID") String id,
              @Parameters(index = "1..*", paramLabel = "COMMAND", description = "After --: what to run instead of"
                      + " the sandbox's shell.") List<String> command,
              @Mixin ApiOptions api) {
        return run(id, command, true, true, api);
    }

    /**
     * Runs {@code command} in the sandbox with this process's streams (stdin only when asked), on a terminal of this
     * terminal's size when {@code tty}; the command's exit status, or the failure's.
     */
    int run(String id, List<String> command, boolean stdin, boolean tty, ApiOptions api) {
        int[] status = {0};
        Output out = api.output();
        int exit = ApiOptions.guard(out, () -> {
            ApiClient client = api.client(true);
            try (LocalTerminal terminal = tty ? LocalTerminal.open() : null) {
                SandboxExec exec = SandboxExec.open(client, one(id), command, terminal == null ? null
                        : terminal.size(), Text.utf8(spec().commandLine().getOut()),
                        Text.utf8(spec().commandLine().getErr()));
                status[0] = exec.await(stdin ? api.in() : null,
                        terminal != null && terminal.interactive() ? terminal::size : null, tty);
            }
        });
        return exit != Exit.OK ? exit : status[0];
    }

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private picocli.CommandLine.Model.CommandSpec spec() {
        return spec;
    }

    private int action(String id, String action, ApiOptions api) {
        return api.call((client, out) -> out.record(client.post(one(id) + "/" + action, null), SANDBOX));
    }

    String base() {
        return "/v1/projects/" + seg(project) + "/sandboxes";
    }

    String one(String id) {
        return base() + "/" + seg(id);
    }
}
