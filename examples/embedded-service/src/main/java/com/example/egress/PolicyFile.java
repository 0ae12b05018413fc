package com.example.egress;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.compiler.ResolutionTooLarge;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.ProblemRenderer;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.SourceFiles;
import java.nio.file.Path;
import java.util.List;

/**
 * One policy file turned into a decision program: read, validate, resolve, compile. Every step of the core that a
 * service embedding it needs, in one place, so the hot-swap loop can call it again whenever the file changes.
 */
public final class PolicyFile {
    private final Path path;

    /** The policy at {@code path}; nothing is read until {@link #compile()}. */
    public PolicyFile(Path path) {
        this.path = path;
    }

    /** Where the policy lives. */
    public Path path() {
        return path;
    }

    /**
     * The program of the file as it is now. A file that cannot be read, or a policy with errors, gives a program
     * that denies everything (fail closed), with the reason in {@link Compiled#problems()}.
     */
    public Compiled compile() {
        SourceFiles.Loaded loaded = SourceFiles.read(path);
        if (loaded instanceof SourceFiles.Unreadable unreadable) {
            return refused("cannot read " + unreadable.message());
        }
        ReadResult read = PolicyReader.read(path.toString(), ((SourceFiles.Text) loaded).text());
        if (!read.valid()) {
            return refused(ProblemRenderer.human(read.problems(), read.sourceName(), read.text()));
        }
        try {
            // No ceiling in this service: a platform would pass its organization's ceiling policies here.
            Resolution resolution = Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(read.policy()));
            return new Compiled(PolicyCompiler.compile(resolution, CompileOptions.defaults()), read.policy().name(),
                    "");
        } catch (ResolutionTooLarge e) {
            return refused(e.getMessage());
        }
    }

    private static Compiled refused(String why) {
        return new Compiled(DecisionProgram.denyAll(ReasonCode.POLICY_UNAVAILABLE,
                "the policy file is not usable: nothing is allowed"), "", why);
    }

    /**
     * A compiled program and, when the file was not usable, why (people's text with file, line and column).
     *
     * @param program  the program to decide with; a deny-all when the file was not usable
     * @param policy   the name of the compiled policy; empty when the file was not usable
     * @param problems empty when the policy compiled
     */
    public record Compiled(DecisionProgram program, String policy, String problems) {
        /** Whether the policy compiled (the program is the policy's, not a deny-all). */
        public boolean usable() {
            return problems.isEmpty();
        }
    }
}
