package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.GraphqlLimits;
import graphql.parser.ParserOptions;

/**
 * The hardened readers of one fence set, built once from its limits. graphql-java's options are passed
 * to each parse through a {@code ParserEnvironment}; the JVM-wide defaults are never read or set.
 */
public final class ParserSetup {

    private final GraphqlLimits limits;
    private final ParserOptions parserOptions;
    private final JsonValues json;
    private final AnalysisCache cache;

    public ParserSetup(GraphqlLimits limits, AnalysisCache cache) {
        this.limits = limits;
        this.cache = cache;
        this.parserOptions = parserOptions(limits);
        this.json = new JsonValues(limits.maxRuleDepth());
    }

    /**
     * The parser options a fence reads query text with. Each limit stops an attack graphql-java documents:
     * characters (huge documents), tokens (CPU exhaustion by token floods), whitespace tokens (padding),
     * rule depth (stack exhaustion). Nothing a fence does not read is captured: no source locations, no
     * comments, no ignored characters; error messages are redacted so no query text reaches a log.
     */
    public static ParserOptions parserOptions(GraphqlLimits limits) {
        return ParserOptions.newParserOptions()
                .maxCharacters(limits.maxCharacters())
                .maxTokens(limits.maxTokens())
                .maxWhitespaceTokens(limits.maxWhitespaceTokens())
                .maxRuleDepth(limits.maxRuleDepth())
                .captureSourceLocation(false)
                .captureLineComments(false)
                .captureIgnoredChars(false)
                .readerTrackData(false)
                .redactTokenParserErrorMessages(true)
                .build();
    }

    public GraphqlLimits limits() {
        return limits;
    }

    public ParserOptions parserOptions() {
        return parserOptions;
    }

    public JsonValues json() {
        return json;
    }

    public AnalysisCache cache() {
        return cache;
    }
}
