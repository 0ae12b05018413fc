package dev.stockade.cli;

import dev.stockade.cli.rest.AuditWindow;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.SuggestOptions;
import dev.stockade.policy.impact.Suggester;
import dev.stockade.policy.impact.Suggestion;
import dev.stockade.policy.impact.SuggestionText;
import dev.stockade.policy.model.TerminalText;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stockade policy suggest}: the smallest policy that would have allowed what a window of the trail allowed,
 * so that a sandbox can be narrowed to what it actually uses (docs/policy-impact.md, "Suggest").
 */
@Command(name = "suggest", mixinStandardHelpOptions = true,
        description = {"Write the least-privilege policy that admits the allowed egress and connector tool calls of a",
                "window of the audit trail (an exported file, or a running platform's): exact hosts, methods and",
                "paths, widened only where --min-subdomains or --min-paths is met; never over a public suffix.",
                "Exit status: 0 written; 2 bad input, a cap exceeded, or the platform unreachable or refusing."})
final class SuggestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--audit", paramLabel = "FILE",
            description = "An exported trail (stockade audit --all --format json > FILE).")
    Path audit;

    @Mixin
    AuditWindow window;

    @Option(names = "--sandbox", paramLabel = "ID", description = "Only this sandbox's egress (and tool calls of a"
            + " caller with this id).")
    String sandbox;

    @Option(names = "--min-subdomains", paramLabel = "N", defaultValue = "3", description = "Distinct subdomains of"
            + " one registrable domain, on one port, that become a wildcard (default: ${DEFAULT-VALUE}; at least 2).")
    int minSubdomains;

    @Option(names = "--min-paths", paramLabel = "N", defaultValue = "4", description = "Distinct rules below one path"
            + " prefix, for one method, that become prefix/** (default: ${DEFAULT-VALUE}; at least 2).")
    int minPaths;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "suggested",
            description = "The suggested policy's name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the policy here instead of standard"
            + " output.")
    Path output;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (!RecordedTrail.oneSource(audit, window, err)) {
            return 2;
        }
        SuggestOptions options;
        try {
            options = new SuggestOptions(name, minSubdomains, minPaths, sandbox, ImpactLimits.defaults().maxEntries());
        } catch (IllegalArgumentException e) {
            err.println("stockade: " + e.getMessage());
            return 2;
        }
        Suggester suggester = new Suggester(options);
        int status = RecordedTrail.feed(audit, window, ImpactLimits.defaults(), suggester::add, err);
        if (status != 0) {
            return status;
        }
        return write(suggester.suggestion(), options, err);
    }

    private int write(Suggestion s, SuggestOptions options, PrintWriter err) {
        String text;
        try {
            text = SuggestionText.of(s, options).text();
        } catch (IllegalStateException e) { // a bug of ours: never hand out a policy the platform would refuse
            err.println("stockade: " + e.getMessage());
            return 2;
        }
        if (s.used() == 0) {
            err.println("stockade: no allowed traffic in the window: the suggestion denies everything");
        }
        if (output == null) {
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
            return 0;
        }
        try {
            Files.writeString(output, text, StandardCharsets.UTF_8);
            return 0;
        } catch (IOException e) {
            err.println("stockade: cannot write " + TerminalText.escape(output.toString()) + ": "
                    + TerminalText.escape(String.valueOf(e.getMessage())));
            return 2;
        }
    }
}
