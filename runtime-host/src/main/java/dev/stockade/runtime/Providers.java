package dev.stockade.runtime;

import dev.stockade.runtime.config.ProviderEndpoints;
import dev.stockade.runtime.config.ProviderKind;
import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.runtime.provider.AnthropicMessages;
import dev.stockade.runtime.provider.AwsSigV4;
import dev.stockade.runtime.provider.ChatModel;
import dev.stockade.runtime.provider.Embedder;
import dev.stockade.runtime.provider.Embeddings;
import dev.stockade.runtime.provider.OpenAiResponses;
import dev.stockade.runtime.provider.ProviderHttp;

/** Builds the chat model and the embedder of the container's one provider from the configuration. */
final class Providers {
    private Providers() {
    }

    static ChatModel chat(RuntimeConfig cfg, ProviderHttp http) {
        ProviderEndpoints e = cfg.endpoints();
        return switch (cfg.provider()) {
            case OPENAI -> new OpenAiResponses(http, e.chatBase(), e.chatKey());
            case BEDROCK -> new AnthropicMessages(http, e.chatBase(), e.chatKey(), true, sigv4(cfg));
            default -> new AnthropicMessages(http, e.chatBase(), e.chatKey(), false);
        };
    }

    /**
     * SigV4 for the Bedrock runtime when the container has an access key pair and no Bedrock API key (direct only:
     * through the platform the platform's key is used); null otherwise.
     */
    static AwsSigV4 sigv4(RuntimeConfig cfg) {
        String id = cfg.value("AWS_ACCESS_KEY_ID");
        String secret = cfg.value("AWS_SECRET_ACCESS_KEY");
        if (cfg.endpoints().routed() || cfg.endpoints().chatKey() != null || id == null || id.isBlank()
                || secret == null || secret.isBlank()) {
            return null;
        }
        return new AwsSigV4(id.strip(), secret.strip(), cfg.value("AWS_REGION"), java.time.Clock.systemUTC());
    }

    /** The embedder, or {@code null} when the embedding model id is empty (embeddings skipped). */
    static Embedder embedder(RuntimeConfig cfg, ProviderHttp http) {
        ProviderEndpoints e = cfg.endpoints();
        if (e.embeddingModel() == null || e.embeddingModel().isBlank()) {
            return null;
        }
        ProviderKind k = cfg.provider();
        Embeddings.Wire wire = k == ProviderKind.OPENAI ? Embeddings.Wire.OPENAI
                : k == ProviderKind.AZURE ? Embeddings.Wire.AZURE : Embeddings.Wire.TITAN;
        return new Embeddings(http, wire, e.embedBase(), e.embedKey(), e.embeddingModel(),
                cfg.value("AZURE_API_VERSION"), k == ProviderKind.BEDROCK ? sigv4(cfg) : null);
    }
}
