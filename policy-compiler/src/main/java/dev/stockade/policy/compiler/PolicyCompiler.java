package dev.stockade.policy.compiler;

import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EffectivePolicy;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.eval.internal.ProgramBuilder;

/**
 * Compiles an effective policy into an immutable {@link DecisionProgram}. Fails closed: if compilation
 * fails for any reason the program denies everything with {@link ReasonCode#POLICY_UNAVAILABLE}.
 */
public final class PolicyCompiler {
    private PolicyCompiler() {
    }

    /** The program for a resolution's effective policy. */
    public static DecisionProgram compile(Resolution resolution, CompileOptions options) {
        return compile(resolution == null ? null : resolution.effective(), options);
    }

    /** The program for an effective policy. */
    public static DecisionProgram compile(EffectivePolicy effective, CompileOptions options) {
        if (effective == null) {
            return DecisionProgram.denyAll(ReasonCode.POLICY_UNAVAILABLE, "no policy: nothing is allowed");
        }
        try {
            return ProgramBuilder.build(effective, options == null ? CompileOptions.defaults() : options);
        } catch (RuntimeException e) {
            return DecisionProgram.denyAll(ReasonCode.POLICY_UNAVAILABLE,
                    "the policy could not be compiled: nothing is allowed");
        }
    }
}
