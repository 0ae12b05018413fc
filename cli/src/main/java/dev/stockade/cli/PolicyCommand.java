package dev.stockade.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code stockade policy ...}: everything done with policy documents. */
@Command(name = "policy", mixinStandardHelpOptions = true,
        description = "Lint, format, describe, test, evaluate and resolve policies, and replay recorded traffic under"
                + " a candidate or suggest the least-privilege policy from it.",
        subcommands = {LintCommand.class, FmtCommand.class, DescribeCommand.class, TestCommand.class, EvalCommand.class,
                EffectiveCommand.class, ImpactCommand.class,
                SuggestCommand.class})
final class PolicyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
