package dev.stockade.policy.compiler;

import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EffectivePolicy;
import dev.stockade.policy.eval.ReasonCode;

/**
 * Compiles a resolution into an immutable {@link DecisionProgram} through the program's one public way
 * to be built ({@link DecisionProgram#compile}). Fails closed: if compilation fails for any reason the
 * program denies everything with {@link ReasonCode#POLICY_UNAVAILABLE}.
 */
public final class PolicyCompiler {
    private PolicyCompiler() {
    }

    /** The program for a resolution's effective policy. */
    public static DecisionProgram compile(Resolution resolution, CompileOptions options) {
        return compile(resolution == null ? null : resolution.effective(), options);
    }

    /** The program for an effective policy ({@link DecisionProgram#compile}). */
    public static DecisionProgram compile(EffectivePolicy effective, CompileOptions options) {
        return DecisionProgram.compile(effective, options);
    }
}
