package dev.stockade.pii.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.pii.WireFormat;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Reasoning a backend signed: Anthropic {@code thinking} and {@code redacted_thinking} blocks, Converse
 * {@code reasoningContent}. A client must send it back on its next turn exactly as the backend wrote it, or the
 * signature fails; so the masker never changes it in a request, and the restorer never changes it in an answer.
 * Left masked in the answer, it goes back with placeholders, never with the caller's values, which the masker
 * would not catch there.
 */
public final class SignedReasoning {

    private SignedReasoning() {
    }

    /** Whether an Anthropic content block is signed reasoning ({@code thinking} or {@code redacted_thinking}). */
    public static boolean anthropicBlock(JsonNode block) {
        String type = block.path("type").asText("");
        return type.equals("thinking") || type.equals("redacted_thinking");
    }

    /**
     * The signed nodes of a whole answer in {@code format}, by identity: an Anthropic message's signed content
     * blocks, or the {@code reasoningContent} of a Converse answer's blocks. Empty for the other formats, which
     * sign nothing in their text.
     */
    public static Set<JsonNode> inAnswer(JsonNode answer, WireFormat format) {
        Set<JsonNode> signed = Collections.newSetFromMap(new IdentityHashMap<>());
        switch (format) {
            case ANTHROPIC_MESSAGES, BEDROCK_INVOKE_ANTHROPIC -> answer.path("content").forEach(block -> {
                if (anthropicBlock(block)) {
                    signed.add(block);
                }
            });
            case BEDROCK_CONVERSE -> answer.path("output").path("message").path("content").forEach(block -> {
                if (block.has("reasoningContent")) {
                    signed.add(block.get("reasoningContent"));
                }
            });
            case OPENAI_CHAT, OPENAI_RESPONSES, OPENAI_EMBEDDINGS -> {
                // OpenAI reasoning is encrypted apart (encrypted_content); its summaries are masked in requests
            }
        }
        return signed;
    }
}
