package dev.stockade.policy.compiler;

import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.ReasonCode;
import java.util.List;
import java.util.Objects;

/**
 * What an enforcement point holds for one agent: the core's decision program (which it calls directly, so every
 * decision keeps its trail: policy, entry, rule and reason code) and the credentials the policies bind. Hosts hold
 * no decision API of their own.
 *
 * @param program          the compiled program; never null
 * @param boundCredentials names of the credentials whose header may be set on a request that lacks it
 */
public record Enforcement(DecisionProgram program, List<String> boundCredentials) {

    /** Requires a program (an enforcement point always has one, if only a deny-all) and copies the names. */
    public Enforcement {
        Objects.requireNonNull(program, "program");
        boundCredentials = List.copyOf(boundCredentials);
    }

    /** The enforcement of a resolution: its program and its bound credentials; none (null): deny everything. */
    public static Enforcement of(Resolution resolution, CompileOptions options) {
        if (resolution == null) {
            return denyAll(ReasonCode.POLICY_UNAVAILABLE, "no policy: nothing is allowed");
        }
        return new Enforcement(PolicyCompiler.compile(resolution, options), resolution.boundCredentials());
    }

    /**
     * An enforcement that denies everything with {@code reason} and binds no credential (no policy yet, an invalid
     * policy, a halted organization): the core's {@link DecisionProgram#denyAll}, so the refusal names its reason.
     */
    public static Enforcement denyAll(ReasonCode reason, String detail) {
        return new Enforcement(DecisionProgram.denyAll(reason, detail), List.of());
    }
}
