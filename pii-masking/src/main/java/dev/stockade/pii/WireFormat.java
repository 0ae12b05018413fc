package dev.stockade.pii;

/**
 * The inference request bodies the proxy carries. Each names which JSON strings are free text (message
 * contents, system prompts, tool inputs and results); keys, model names, ids and numbers are never masked.
 */
public enum WireFormat {
    /** Anthropic Messages ({@code /v1/messages}); also Bedrock InvokeModel with an Anthropic body. */
    ANTHROPIC_MESSAGES,
    /** OpenAI Chat Completions. */
    OPENAI_CHAT,
    /** OpenAI Responses. */
    OPENAI_RESPONSES,
    /** OpenAI embeddings: the {@code input} text(s). */
    OPENAI_EMBEDDINGS,
    /** Bedrock Converse and ConverseStream. */
    BEDROCK_CONVERSE,
    /** Bedrock InvokeModel with an Anthropic Messages body (the same text fields as Anthropic). */
    BEDROCK_INVOKE_ANTHROPIC
}
