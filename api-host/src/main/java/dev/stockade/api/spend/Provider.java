package dev.stockade.api.spend;

import java.util.Arrays;
import java.util.Optional;

/** The managed-inference backends a metered call goes to (spec: the provider values). */
public enum Provider {
    BEDROCK("bedrock"), AZURE("azure"), BEDROCK_MANTLE("bedrock-mantle"), OPENAI("openai"), OPENROUTER("openrouter"),
    LITELLM("litellm");

    private final String wire;

    Provider(String wire) {
        this.wire = wire;
    }

    /** The provider value as policies, routes and the ledger write it. */
    public String wire() {
        return wire;
    }

    public static Optional<Provider> of(String wire) {
        return Arrays.stream(values()).filter(p -> p.wire.equals(wire)).findFirst();
    }
}
