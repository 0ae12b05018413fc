package dev.stockade.inference;

import java.util.Optional;

/**
 * The request and response shapes the inference proxy meters; each one has its own usage fields and its own
 * way of ending a stream, so everything else in this module is chosen by it.
 */
public enum WireFormat {
    /** Anthropic Messages ({@code v1/messages}), also served by Azure Foundry, Mantle, OpenRouter and LiteLLM. */
    ANTHROPIC_MESSAGES(Family.ANTHROPIC),
    /** OpenAI Chat Completions. */
    OPENAI_CHAT(Family.OPENAI),
    /** OpenAI Responses. */
    OPENAI_RESPONSES(Family.OPENAI),
    /** OpenAI embeddings: input tokens only, never streamed. */
    OPENAI_EMBEDDINGS(Family.OPENAI),
    /** Bedrock InvokeModel and InvokeModelWithResponseStream with an Anthropic Messages body. */
    BEDROCK_INVOKE(Family.ANTHROPIC),
    /** Bedrock Converse and ConverseStream. */
    BEDROCK_CONVERSE(Family.BEDROCK),
    /**
     * OpenAI Realtime: JSON server events over a WebSocket, usage in each {@code response.done} (read by
     * {@link RealtimeUsage}). It has no request body to bound and no HTTP stream to meter or truncate, and no path
     * routes to it: the relay that opens the WebSocket names it.
     */
    OPENAI_REALTIME(Family.OPENAI);

    /** Which vendor's JSON the body speaks; the price data is looked up by it when a backend serves several. */
    public enum Family { ANTHROPIC, OPENAI, BEDROCK }

    private final Family family;

    WireFormat(Family family) {
        this.family = family;
    }

    /** The vendor whose JSON this format speaks. */
    public Family family() {
        return family;
    }

    /** Whether the response may arrive as AWS event-stream frames rather than server-sent events. */
    public boolean eventStreamFramed() {
        return this == BEDROCK_INVOKE || this == BEDROCK_CONVERSE;
    }

    /**
     * The format of a metered call from the path after the provider's prefix (and region), or empty for a path
     * that is not a metered call (model listings, token counting, response retrieval, ...).
     */
    public static Optional<WireFormat> fromPathTail(String tail) {
        return WireRoute.of(tail).map(WireRoute::format);
    }
}
