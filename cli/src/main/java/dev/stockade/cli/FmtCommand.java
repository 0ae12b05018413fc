package dev.stockade.cli;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import dev.stockade.cli.format.FormatOutcome;
import dev.stockade.cli.format.PolicyFormat;
import dev.stockade.policy.model.ProblemRenderer;
import dev.stockade.policy.model.SourceFiles;
import dev.stockade.policy.model.TerminalText;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code stockade policy fmt PATH...}: policy files in one canonical form, so that reviews show meaning, not style. */
@Command(name = "fmt", mixinStandardHelpOptions = true,
        description = {"Format policy YAML files canonically: keys in the spec's order, two-space indentation,"
                + " quotes only where needed; comments kept. Prints the formatted text unless --check or -w.",
                "Folders are searched recursively for .yaml/.yml files.",
                "Exit status: 0 done (or, with --check, every file formatted), 1 --check found a file to format,"
                        + " 2 a file could not be read, does not parse or could not be formatted whole."})
final class FmtCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Policy files (YAML) or folders.")
    List<Path> paths;

    @Option(names = "--check", description = "Change nothing; print a unified diff of each file that is not formatted.")
    boolean check;

    @Option(names = {"-w", "--write"}, description = "Rewrite files that are not formatted, in place.")
    boolean write;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (check && write) {
            err.println("stockade: --check and -w exclude each other: --check changes nothing");
            return 2;
        }
        List<Path> files = new ArrayList<>();
        boolean broken = !collect(files, err);
        boolean unformatted = false;
        for (Path file : files) {
            Result result = one(file, out, err);
            broken |= result == Result.BROKEN;
            unformatted |= result == Result.UNFORMATTED;
        }
        out.flush();
        err.flush();
        return broken ? 2 : unformatted ? 1 : 0;
    }

    private enum Result { FORMATTED, UNFORMATTED, BROKEN }

    private Result one(Path file, PrintWriter out, PrintWriter err) {
        if (file.getFileName() != null && file.getFileName().toString().endsWith(".json")) {
            err.println("stockade: cannot format " + TerminalText.escape(file.toString())
                    + ": fmt formats yaml policy files; json has one form already");
            return Result.BROKEN;
        }
        SourceFiles.Loaded loaded = SourceFiles.read(file);
        if (loaded instanceof SourceFiles.Unreadable unreadable) {
            err.println("stockade: cannot read " + TerminalText.escape(unreadable.message()));
            return Result.BROKEN;
        }
        String text = ((SourceFiles.Text) loaded).text();
        FormatOutcome outcome = PolicyFormat.format(file.toString(), text);
        if (outcome instanceof FormatOutcome.Refused refused) {
            err.print(ProblemRenderer.human(refused.problems(), file.toString(), text));
            return Result.BROKEN;
        }
        FormatOutcome.Formatted formatted = (FormatOutcome.Formatted) outcome;
        if (check) {
            if (formatted.changed()) {
                diff(file, text, formatted.text()).forEach(line -> out.println(TerminalText.escape(line)));
            }
            return formatted.changed() ? Result.UNFORMATTED : Result.FORMATTED;
        }
        if (!write) {
            out.print(formatted.text());
            return Result.FORMATTED;
        }
        if (formatted.changed()) {
            try {
                replace(file, formatted.text());
            } catch (IOException | UncheckedIOException e) {
                err.println("stockade: cannot write " + TerminalText.escape(file.toString()) + ": "
                        + TerminalText.escape(String.valueOf(e.getMessage())));
                return Result.BROKEN;
            }
            err.println("formatted " + TerminalText.escape(file.toString()));
        }
        return Result.FORMATTED;
    }

    /**
     * Adds the files named, and those below the folders named (.yaml/.yml), to {@code out}; false when a path does
     * not exist or a folder cannot be listed (reported, and the others are still formatted).
     */
    private boolean collect(List<Path> out, PrintWriter err) {
        boolean ok = true;
        for (Path path : paths) {
            if (!Files.isDirectory(path)) {
                if (Files.exists(path)) {
                    out.add(path);
                } else {
                    err.println("stockade: cannot read " + TerminalText.escape(path.toString()) + ": no such file or folder");
                    ok = false;
                }
                continue;
            }
            try (Stream<Path> walk = Files.walk(path)) {
                walk.filter(Files::isRegularFile)
                        .filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                        .sorted().forEach(out::add);
            } catch (IOException | UncheckedIOException e) {
                err.println("stockade: cannot list " + TerminalText.escape(path.toString()));
                ok = false;
            }
        }
        return ok;
    }

    /** A unified diff from the file as written to its formatted text, three lines of context. */
    static List<String> diff(Path file, String before, String after) {
        List<String> original = before.lines().toList();
        List<String> revised = after.lines().toList();
        return UnifiedDiffUtils.generateUnifiedDiff(file + " (as written)", file + " (formatted)", original,
                DiffUtils.diff(original, revised), 3);
    }

    /** Writes beside the file, then moves over it: a reader never sees half a policy. */
    private static void replace(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, ".stockade-fmt-", ".tmp");
        try {
            Files.writeString(temp, text);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
