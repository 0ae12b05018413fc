package dev.stockade.inference;

import java.util.Locale;
import java.util.Optional;

/** The managed-inference backends of the spec's {@code managedInference.provider}, by their policy value. */
public enum InferenceProvider {
    BEDROCK("bedrock"),
    AZURE("azure"),
    BEDROCK_MANTLE("bedrock-mantle"),
    OPENAI("openai"),
    OPENROUTER("openrouter"),
    LITELLM("litellm");

    private final String value;

    InferenceProvider(String value) {
        this.value = value;
    }

    /** The policy value, e.g. {@code bedrock-mantle}. */
    public String value() {
        return value;
    }

    /** The backend named by a policy value, or empty for an unknown one. */
    public static Optional<InferenceProvider> fromValue(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String lower = value.trim().toLowerCase(Locale.ROOT);
        for (InferenceProvider provider : values()) {
            if (provider.value.equals(lower)) {
                return Optional.of(provider);
            }
        }
        return Optional.empty();
    }
}
