package dev.stockade.runtime.config;

import java.util.Locale;

/** The four LLM providers a runtime can talk to (one per container). */
public enum ProviderKind {
    BEDROCK("bedrock", "BEDROCK"),
    BEDROCK_MANTLE("bedrock-mantle", "BEDROCK_MANTLE"),
    AZURE("azure", "AZURE"),
    OPENAI("openai", "OPENAI");

    private final String wire;
    private final String envName;

    ProviderKind(String wire, String envName) {
        this.wire = wire;
        this.envName = envName;
    }

    public String wire() {
        return wire;
    }

    /** The infix of the platform's {@code PLATFORM_INFERENCE_<NAME>_*} variables. */
    public String envName() {
        return envName;
    }

    /** Whether this provider speaks the Anthropic Messages API for chat. */
    public boolean anthropic() {
        return this != OPENAI;
    }

    /** The provider named {@code value}, or {@code null} for anything else. */
    public static ProviderKind parse(String value) {
        if (value == null) {
            return null;
        }
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (ProviderKind k : values()) {
            if (k.wire.equals(v)) {
                return k;
            }
        }
        return null;
    }
}
