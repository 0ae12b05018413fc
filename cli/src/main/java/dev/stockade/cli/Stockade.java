package dev.stockade.cli;

import dev.stockade.policy.model.TerminalText;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code stockade}: lint, describe, test, evaluate and resolve policies. */
@Command(name = "stockade", mixinStandardHelpOptions = true, versionProvider = Stockade.Version.class,
        description = "Policy engine for AI-agent sandboxes.",
        footer = {"", "The egress proxy host runs from the same launcher: ./stockade proxy --help"},
        subcommands = {PolicyCommand.class, CommandLine.HelpCommand.class})
public final class Stockade {

    /** Runs the CLI and exits with its status: 0 ok, 1 problems or failures, 2 bad input or usage. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI on the process's streams and returns its exit status instead of exiting. */
    public static int run(String... args) {
        return run(new java.io.PrintWriter(System.out, true), new java.io.PrintWriter(System.err, true), args);
    }

    /** Runs the CLI writing to {@code out} and {@code err}; returns its exit status. */
    public static int run(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new Stockade());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("stockade: " + TerminalText.escape(String.valueOf(e.getMessage())));
            return 2;
        });
        cli.setParameterExceptionHandler((e, args1) -> {
            CommandLine cmd = e.getCommandLine();
            cmd.getErr().println("stockade: " + TerminalText.escape(e.getMessage()));
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

    /** The version from the jar's manifest, or {@code dev} when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Stockade.class.getPackage().getImplementationVersion();
            return new String[] {"stockade " + (version == null ? "dev" : version)};
        }
    }
}
