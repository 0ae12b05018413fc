package dev.stockade.cli;

import dev.stockade.policy.text.Quoted;
import dev.stockade.policy.model.TerminalText;
import dev.stockade.cli.rest.AuditCommand;
import dev.stockade.cli.rest.BindingsCommand;
import dev.stockade.cli.rest.AwsConnectionsCommand;
import dev.stockade.cli.rest.ClusterCommand;
import dev.stockade.cli.rest.CredentialsCommand;
import dev.stockade.cli.rest.HaltCommand;
import dev.stockade.cli.rest.InferenceCommand;
import dev.stockade.cli.rest.PoliciesCommand;
import dev.stockade.cli.rest.SandboxCommand;
import dev.stockade.cli.rest.InstallationCommand;
import dev.stockade.cli.rest.InvitationsCommand;
import dev.stockade.cli.rest.LoginCommands;
import dev.stockade.cli.rest.OrgsCommand;
import dev.stockade.cli.rest.ProjectsCommand;
import dev.stockade.cli.rest.SandboxTokensCommand;
import dev.stockade.cli.rest.SpendCommand;
import dev.stockade.cli.rest.ConnectorsCommand;
import dev.stockade.cli.rest.McpCommand;
import dev.stockade.cli.rest.ProxyTokensCommand;
import dev.stockade.cli.rest.TokensCommand;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code stockade}: the policy commands and the platform's REST commands. */
@Command(name = "stockade", mixinStandardHelpOptions = true, versionProvider = Stockade.Version.class,
        description = "Govern AI agents in sandboxes: policies, and the platform's organizations, projects and tokens.",
        footer = {"", "Exit status: 0 ok; 1 problems found, or the platform refused the request; 2 usage, unreadable"
                + " input, not signed in or the platform unreachable; 3 the server's answer was not the platform's.",
                "The platform and the egress proxy run from the same launcher: ./stockade serve --help,"
                + " ./stockade proxy --help. Reference: docs/cli.md"},
        subcommands = {PolicyCommand.class, LoginCommands.Login.class, LoginCommands.Logout.class,
                LoginCommands.Whoami.class, OrgsCommand.class, ProjectsCommand.class, TokensCommand.class,
                SandboxTokensCommand.class, InvitationsCommand.class, HaltCommand.class, AuditCommand.class,
                PoliciesCommand.class, BindingsCommand.class, CredentialsCommand.class, SandboxCommand.class,
                InstallationCommand.class, ClusterCommand.class, AwsConnectionsCommand.class,
                ProxyTokensCommand.class, McpCommand.class,
                ConnectorsCommand.class, SpendCommand.class, InferenceCommand.class, SchemaCommand.class,
                CompletionCommand.class,
                CommandLine.HelpCommand.class})
public final class Stockade {
    private static final Map<String, List<String>> EXAMPLES = UsageExamples.load();
    private final Map<String, String> env;
    private final java.io.InputStream in;
    private final java.io.OutputStream bytesOut;

    private Stockade(Map<String, String> env, java.io.InputStream in, java.io.OutputStream bytesOut) {
        this.env = Map.copyOf(env);
        this.in = in;
        this.bytesOut = bytesOut;
    }

    /** The environment the commands read ({@code STOCKADE_URL}, {@code STOCKADE_TOKEN}, {@code HOME}, ...). */
    public Map<String, String> env() {
        return env;
    }

    /** The standard input the commands read ({@code sandbox exec -i}, {@code sandbox shell}). */
    public java.io.InputStream in() {
        return in;
    }

    /**
     * Standard output as bytes, for output that is not text ({@code sandbox copy ID:PATH -} writes a tar stream);
     * null when this run's standard output is a writer only.
     */
    public java.io.OutputStream bytesOut() {
        return bytesOut;
    }

    /** Runs the CLI and exits with its status (see the usage footer). */
    public static void main(String[] args) {
        System.exit(run(System.in, System.out, new java.io.PrintWriter(System.out, true),
                new java.io.PrintWriter(System.err, true), System.getenv(), args));
    }

    /**
     * {@code message} with every long command-line argument it quotes clipped by the core's one rule
     * ({@link Quoted#clip}): picocli's own messages ({@code Unknown option}, {@code Invalid value}) quote them whole.
     */
    static String clipArguments(String message, String[] args) {
        String clipped = message;
        for (String arg : args) {
            if (arg != null && arg.length() > Quoted.SHOWN && clipped.contains(arg)) {
                clipped = clipped.replace(arg, Quoted.clip(arg));
            }
        }
        return clipped;
    }

    /** Runs the CLI on the process's streams and returns its exit status instead of exiting. */
    public static int run(String... args) {
        return run(new java.io.PrintWriter(System.out, true), new java.io.PrintWriter(System.err, true), args);
    }

    /** Runs the CLI writing to {@code out} and {@code err}; returns its exit status. */
    public static int run(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
        return run(out, err, System.getenv(), args);
    }

    /** Runs the CLI with the given environment instead of the process's (tests); returns its exit status. */
    public static int run(java.io.PrintWriter out, java.io.PrintWriter err, Map<String, String> env, String... args) {
        return run(System.in, out, err, env, args);
    }

    /**
     * Runs the CLI with the given standard input and environment (tests: each run its own keyboard, where swapping
     * the process-wide {@code System.in} would reach test classes running at the same time).
     */
    public static int run(java.io.InputStream in, java.io.PrintWriter out, java.io.PrintWriter err,
                          Map<String, String> env, String... args) {
        return run(in, null, out, err, env, args);
    }

    /**
     * As {@link #run(java.io.InputStream, java.io.PrintWriter, java.io.PrintWriter, Map, String...)}, with standard
     * output also as bytes ({@code bytesOut}, the stream under {@code out}; null: none).
     */
    public static int run(java.io.InputStream in, java.io.OutputStream bytesOut, java.io.PrintWriter out,
                          java.io.PrintWriter err, Map<String, String> env, String... args) {
        CommandLine cli = commandLine(env, in, bytesOut);
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("stockade: " + TerminalText.escape(clipArguments(String.valueOf(e.getMessage()), args)));
            return 2;
        });
        cli.setParameterExceptionHandler((e, args1) -> {
            CommandLine cmd = e.getCommandLine();
            cmd.getErr().println("stockade: " + TerminalText.escape(clipArguments(String.valueOf(e.getMessage()), args1)));
            cmd.getErr().println("run `" + cmd.getCommandSpec().qualifiedName() + " --help` for usage");
            return 2;
        });
        try {
            return cli.execute(args);
        } catch (OutOfMemoryError | StackOverflowError e) {
            // INVARIANT: no stack trace reaches a user. Inputs are bounded before they are read, so this is a
            // bug; say what ran out and fail without deciding anything.
            err.println("stockade: out of " + (e instanceof OutOfMemoryError ? "memory" : "stack")
                    + "; nothing was decided (please report this with the input that caused it)");
            err.flush();
            return 2;
        }
    }

    /** The command tree as every run sees it: enum values in any case, each command's examples in its help. */
    static CommandLine commandLine(Map<String, String> env, java.io.InputStream in) {
        return commandLine(env, in, null);
    }

    private static CommandLine commandLine(Map<String, String> env, java.io.InputStream in,
                                           java.io.OutputStream bytesOut) {
        CommandLine cli = new CommandLine(new Stockade(env, in, bytesOut));
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        UsageExamples.attach(cli, EXAMPLES);
        return cli;
    }

    /** The version from the jar's manifest, or {@code dev} when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Stockade.class.getPackage().getImplementationVersion();
            return new String[] {"stockade " + (version == null ? "dev" : version)};
        }
    }
}
