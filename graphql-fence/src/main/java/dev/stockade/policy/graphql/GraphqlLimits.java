package dev.stockade.policy.graphql;

/**
 * Bounds on what a fence set inspects. Going past any of them denies with {@code graphql-limit}; a request
 * is never passed uninspected.
 *
 * @param maxBodyBytes        body (or websocket frame) size inspected; a longer or truncated body is denied
 * @param maxCharacters       characters of query text the parser reads (stops huge documents)
 * @param maxTokens           grammar tokens of the query text (stops token floods that exhaust the CPU)
 * @param maxWhitespaceTokens whitespace and comment tokens (stops padding attacks)
 * @param maxRuleDepth        grammar rule nesting, also the JSON nesting bound (stops stack exhaustion)
 * @param maxGlobWork         glob matching work of one request, in 64-bit word operations ({@code Glob#cost}):
 *                            each distinct (glob, text) pair is matched once and charged; beyond the bound
 *                            the request is denied (stops aliases of one large variable from buying CPU)
 */
public record GraphqlLimits(int maxBodyBytes, int maxCharacters, int maxTokens, int maxWhitespaceTokens,
                            int maxRuleDepth, long maxGlobWork) {

    /** The default glob work bound: 2^27 word operations, about a tenth of a second on one core. */
    public static final long DEFAULT_MAX_GLOB_WORK = 1L << 27;

    /** Refuses a limit that is zero or negative: a limit that admits nothing is a mistake, not a setting. */
    public GraphqlLimits {
        if (maxBodyBytes <= 0 || maxCharacters <= 0 || maxTokens <= 0 || maxWhitespaceTokens <= 0
                || maxRuleDepth <= 0 || maxGlobWork <= 0) {
            throw new IllegalArgumentException("graphql limits must be positive");
        }
    }

    /** Limits with the default glob work bound. */
    public GraphqlLimits(int maxBodyBytes, int maxCharacters, int maxTokens, int maxWhitespaceTokens,
                         int maxRuleDepth) {
        this(maxBodyBytes, maxCharacters, maxTokens, maxWhitespaceTokens, maxRuleDepth, DEFAULT_MAX_GLOB_WORK);
    }

    /**
     * Defaults sized for real clients of large APIs (GitHub, Shopify): 1 MiB bodies, 1,000,000 characters,
     * 15,000 tokens, 200,000 whitespace tokens, rule depth 500 (graphql-java's own defaults for the parser),
     * 2^27 word operations of glob matching (a 1 MiB value against the longest glob, 4096 characters, costs
     * 2^26).
     */
    public static GraphqlLimits defaults() {
        return new GraphqlLimits(1 << 20, 1_000_000, 15_000, 200_000, 500, DEFAULT_MAX_GLOB_WORK);
    }
}
