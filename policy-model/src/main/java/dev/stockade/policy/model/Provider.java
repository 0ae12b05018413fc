package dev.stockade.policy.model;

import java.util.Locale;

/** A managed-inference backend. */
public enum Provider {
    /** Amazon Bedrock. */
    BEDROCK("bedrock"),
    /** Azure AI Foundry, serving Anthropic and OpenAI models. */
    AZURE("azure"),
    /** Amazon Bedrock Mantle, speaking the Anthropic and OpenAI wire formats per region. */
    BEDROCK_MANTLE("bedrock-mantle"),
    /** OpenAI. */
    OPENAI("openai"),
    /** OpenRouter. */
    OPENROUTER("openrouter"),
    /** A LiteLLM gateway. */
    LITELLM("litellm");

    private final String wire;

    Provider(String wire) {
        this.wire = wire;
    }

    /** The value as written in a policy document. */
    public String wire() {
        return wire;
    }

    /** The provider's part of sandbox variable names: {@code bedrock-mantle} gives {@code BEDROCK_MANTLE}. */
    public String envName() {
        return wire.replace('-', '_').toUpperCase(Locale.ROOT);
    }

    /** The provider written as {@code text}, or {@code null} if the text names none. */
    public static Provider fromWire(String text) {
        return WireEnums.lookup(values(), Provider::wire, text);
    }
}
