package dev.stockade.cli;

import dev.stockade.policy.model.TerminalText;
import dev.stockade.policy.compiler.DescribeRows;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code stockade policy describe FILE}: one row per domain entry. */
@Command(name = "describe", mixinStandardHelpOptions = true,
        description = {"Print one row per domain entry: pattern, verdict, scheme/transport, callers=, rules=.",
                "Exit status: 0 printed, 2 the file is unreadable or invalid."})
final class DescribeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "A policy file (YAML or JSON).")
    Path file;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Optional<List<Policy>> read = PolicyFiles.readValid(List.of(file), spec.commandLine().getErr());
        if (read.isEmpty()) {
            return 2;
        }
        for (DomainEntry entry : read.get().get(0).domains()) {
            out.println(TerminalText.escape(DescribeRows.row(entry)));
        }
        out.flush();
        return 0;
    }
}
