package dev.stockade.policy.eval.internal;

import dev.stockade.policy.eval.DecisionProgram;
import java.util.function.Function;

/**
 * The bridge through which {@link ProgramBuilder} wraps an {@link Engine} in a {@link DecisionProgram},
 * whose constructor stays package-private: {@code DecisionProgram} installs the wrapper when its class
 * initialises (the JDK's "shared secrets" idiom).
 */
public final class ProgramAccess {
    private static volatile Function<Engine, DecisionProgram> wrapper;

    private ProgramAccess() {
    }

    /** Called once by {@link DecisionProgram}'s static initialiser. */
    public static void install(Function<Engine, DecisionProgram> value) {
        if (wrapper == null) {
            wrapper = value;
        }
    }

    static DecisionProgram wrap(Engine engine) {
        if (wrapper == null) {
            try {
                Class.forName(DecisionProgram.class.getName(), true, DecisionProgram.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
        return wrapper.apply(engine);
    }
}
