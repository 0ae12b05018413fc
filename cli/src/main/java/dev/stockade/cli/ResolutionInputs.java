package dev.stockade.cli;

import dev.stockade.cli.testing.PolicySources;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.compiler.ResolutionTooLarge;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.TerminalText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The options that name what reaches an agent: granted policies, the ceiling, the install facts. */
final class ResolutionInputs {
    @Option(names = "--policy", required = true, paramLabel = "FILE",
            description = "A policy that reaches the agent; repeat in attachment order.")
    List<Path> policies;

    @Option(names = "--ceiling", paramLabel = "FILE", description = "An org ceiling policy; repeat for several.")
    List<Path> ceiling;

    @Option(names = "--install", paramLabel = "FILE",
            description = "Install facts (YAML: providers, bedrockAmbient). Default: providers [bedrock].")
    Path install;

    /** Resolves the inputs, or prints why it cannot (exit 2) and returns empty. */
    Optional<Resolution> resolve(PrintWriter err) {
        Optional<List<Policy>> grants = PolicyFiles.readValid(policies, err);
        Optional<List<Policy>> clip = PolicyFiles.readValid(ceiling, err);
        Optional<InstallFacts> facts = installFacts(err);
        if (grants.isEmpty() || clip.isEmpty() || facts.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Resolver.resolve(facts.get(), clip.get(), grants.get()));
        } catch (ResolutionTooLarge e) {
            err.println("stockade: " + e.getMessage());
            return Optional.empty();
        }
    }

    private Optional<InstallFacts> installFacts(PrintWriter err) {
        return installFacts(install, err);
    }

    /** The facts of an install file ({@code null}: the defaults), or empty after printing its problems. */
    static Optional<InstallFacts> installFacts(Path install, PrintWriter err) {
        if (install == null) {
            return Optional.of(PolicySources.installOf(com.fasterxml.jackson.databind.node.MissingNode.getInstance()));
        }
        PolicySources.InstallOrErrors read = PolicySources.installFile(install);
        read.errors().forEach(e -> err.println("stockade: " + TerminalText.escape(e.render())));
        return Optional.ofNullable(read.facts());
    }
}
