package dev.stockade.cli;

import dev.stockade.cli.rest.AuditWindow;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.compiler.ResolutionTooLarge;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.impact.Candidate;
import dev.stockade.policy.impact.CandidateSource;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.ImpactReplay;
import dev.stockade.policy.impact.ImpactReport;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.ReadResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code stockade policy impact}: what a candidate policy would change in recorded traffic, before it is saved. */
@Command(name = "impact", mixinStandardHelpOptions = true,
        description = {"Replay a window of the audit trail (an exported file, or a running platform's) under a",
                "candidate policy set and report what it would newly deny, newly allow, or leave unchanged.",
                "Exit status: 0 nothing recorded as allowed would be denied (or --accept-breaking);",
                "1 something would break; 2 bad input, a cap exceeded, or the platform unreachable or refusing."})
final class ImpactCommand implements Callable<Integer> {
    /** How the report is printed. */
    enum Format { text, json, sarif, markdown }

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "CANDIDATE",
            description = "A candidate policy that reaches the sandboxes; several in attachment order.")
    List<Path> candidates;

    @Option(names = "--ceiling", paramLabel = "FILE", description = "A candidate org ceiling; repeat for several.")
    List<Path> ceiling;

    @Option(names = "--install", paramLabel = "FILE",
            description = "Install facts (YAML: providers, bedrockAmbient). Default: providers [bedrock].")
    Path install;

    @Option(names = "--audit", paramLabel = "FILE",
            description = "An exported trail (stockade audit --all --format json > FILE).")
    Path audit;

    @Mixin
    AuditWindow window;

    @Option(names = "--format", defaultValue = "text", description = "text (default), json, sarif or markdown.")
    Format format;

    @Option(names = "--accept-breaking", description = "Exit 0 even when recorded traffic would be denied.")
    boolean acceptBreaking;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (!RecordedTrail.oneSource(audit, window, err)) {
            return 2;
        }
        Optional<List<ReadResult>> read = PolicyFiles.readValidResults(candidates, err);
        Optional<List<Policy>> clip = PolicyFiles.readValid(ceiling, err);
        Optional<InstallFacts> facts = ResolutionInputs.installFacts(install, err);
        if (read.isEmpty() || clip.isEmpty() || facts.isEmpty()) {
            return 2;
        }
        Resolution resolution;
        try {
            resolution = Resolver.resolve(facts.get(), clip.get(), read.get().stream().map(ReadResult::policy)
                    .toList());
        } catch (ResolutionTooLarge e) {
            err.println("stockade: " + e.getMessage());
            return 2;
        }
        ImpactLimits limits = ImpactLimits.defaults();
        ImpactReplay replay = new ImpactReplay(CandidateSource.everywhere(Candidate.of(resolution)), limits);
        int status = RecordedTrail.feed(audit, window, limits, replay::add, err);
        if (status != 0) {
            return status;
        }
        ImpactReport report = replay.report();
        ImpactRender.print(format, report, read.get(), spec.commandLine().getOut());
        return report.breaking() && !acceptBreaking ? 1 : 0;
    }
}
