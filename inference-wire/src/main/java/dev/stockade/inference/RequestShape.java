package dev.stockade.inference;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a request body bounds about the call before it is forwarded: enough to reserve its maximum cost.
 *
 * @param format           the wire format
 * @param model            the model the call names (from the path for Bedrock and Azure deployments)
 * @param stream           whether the answer streams
 * @param maxOutputTokens  the client's output bound ({@code max_tokens}, {@code max_completion_tokens},
 *                         {@code max_output_tokens}, {@code inferenceConfig.maxTokens}) times the number of
 *                         choices; empty when the body sets none (embeddings: zero)
 * @param inputTokenBound  an upper bound on the input tokens from the body alone: its UTF-8 byte length plus a
 *                         fixed allowance for hidden prompt text (see docs/semantics.md)
 * @param unboundedInput   true when the body pulls in content whose tokens its bytes do not bound (a URL or file
 *                         reference, a document, a video, a server-side tool): the caller then bounds input by
 *                         the model's context window instead
 */
public record RequestShape(WireFormat format, Optional<String> model, boolean stream, OptionalLong maxOutputTokens,
                           long inputTokenBound, boolean unboundedInput) {

    public RequestShape {
        if (inputTokenBound < 0) {
            throw new IllegalArgumentException("inputTokenBound must not be negative");
        }
    }
}
