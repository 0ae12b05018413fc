package dev.stockade.policy.eval;

import dev.stockade.policy.graphql.GraphqlLimits;

/**
 * Options for compiling an effective policy into a {@link DecisionProgram}.
 *
 * @param inferSchemeFromConnection when a request carries no scheme, infer {@code https} from an SNI
 *                                  or port 443 and {@code http} from port 80; otherwise the scheme
 *                                  stays unknown and every entry with a {@code scheme} denies it
 * @param graphqlLimits             parser and body limits for GraphQL fences ({@code null}: defaults)
 */
public record CompileOptions(boolean inferSchemeFromConnection, GraphqlLimits graphqlLimits) {

    public CompileOptions {
        graphqlLimits = graphqlLimits == null ? GraphqlLimits.defaults() : graphqlLimits;
    }

    /** The defaults: infer the scheme from the connection, default GraphQL limits. */
    public static CompileOptions defaults() {
        return new CompileOptions(true, GraphqlLimits.defaults());
    }
}
