package dev.stockade.policy.eval;

import dev.stockade.policy.graphql.GraphqlDocumentCache;
import dev.stockade.policy.graphql.GraphqlLimits;

/**
 * Options for compiling an effective policy into a {@link DecisionProgram}.
 *
 * @param inferSchemeFromConnection when a request carries no scheme, infer {@code https} from an SNI
 *                                  or port 443 and {@code http} from port 80; otherwise the scheme
 *                                  stays unknown and every entry with a {@code scheme} denies it
 * @param graphqlLimits             parser and body limits for GraphQL fences ({@code null}: defaults)
 * @param hostMemoSlots             how many recent hosts the program remembers the domain-index answer
 *                                  for (rounded up to a power of two; {@code 0} turns the memo off).
 *                                  Each slot costs 12 bytes plus the host string it keeps alive.
 * @param graphqlDocuments          where the program's GraphQL fences keep parsed documents ({@code null}: a
 *                                  cache of this program's own, {@link GraphqlDocumentCache#DEFAULT_MAX_BYTES});
 *                                  a multi-tenant host passes one per tenant
 */
public record CompileOptions(boolean inferSchemeFromConnection, GraphqlLimits graphqlLimits, int hostMemoSlots,
                             GraphqlDocumentCache graphqlDocuments) {

    /** The default size of the host memo. */
    public static final int DEFAULT_HOST_MEMO_SLOTS = 8192;

    /** Fills unset parts with the defaults and refuses a host memo size out of range. */
    public CompileOptions {
        graphqlLimits = graphqlLimits == null ? GraphqlLimits.defaults() : graphqlLimits;
        graphqlDocuments = graphqlDocuments == null
                ? GraphqlDocumentCache.bounded(GraphqlDocumentCache.DEFAULT_MAX_BYTES) : graphqlDocuments;
        if (hostMemoSlots < 0 || hostMemoSlots > 1 << 24) {
            throw new IllegalArgumentException("hostMemoSlots must be between 0 and 16777216, was " + hostMemoSlots);
        }
    }

    /** Options with a document cache of the program's own. */
    public CompileOptions(boolean inferSchemeFromConnection, GraphqlLimits graphqlLimits, int hostMemoSlots) {
        this(inferSchemeFromConnection, graphqlLimits, hostMemoSlots, null);
    }

    /**
     * The defaults: infer the scheme from the connection, default GraphQL limits, default host memo, a
     * GraphQL document cache of the program's own (each call makes a new one).
     */
    public static CompileOptions defaults() {
        return new CompileOptions(true, GraphqlLimits.defaults(), DEFAULT_HOST_MEMO_SLOTS, null);
    }

    /** These options with a host memo of {@code slots} entries ({@code 0}: no memo). */
    public CompileOptions withHostMemoSlots(int slots) {
        return new CompileOptions(inferSchemeFromConnection, graphqlLimits, slots, graphqlDocuments);
    }

    /** These options with {@code cache} for parsed GraphQL documents (share it among a tenant's programs). */
    public CompileOptions withGraphqlDocuments(GraphqlDocumentCache cache) {
        return new CompileOptions(inferSchemeFromConnection, graphqlLimits, hostMemoSlots, cache);
    }
}
