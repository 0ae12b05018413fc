package dev.stockade.policy.eval;

/**
 * Options for compiling an effective policy into a {@link DecisionProgram}.
 *
 * @param inferSchemeFromConnection when a request carries no scheme, infer {@code https} from an SNI
 *                                  or port 443 and {@code http} from port 80; otherwise the scheme
 *                                  stays unknown and every entry with a {@code scheme} denies it
 */
public record CompileOptions(boolean inferSchemeFromConnection) {

    /** The defaults: infer the scheme from the connection. */
    public static CompileOptions defaults() {
        return new CompileOptions(true);
    }
}
