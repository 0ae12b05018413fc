package dev.stockade.runtime.config;

import java.util.List;

/**
 * Where the one provider of this container is reached, with which credential and models. Routed mode
 * (PLATFORM_API_URL set) uses the platform's {@code PLATFORM_INFERENCE_<PROVIDER>_*} variables, or
 * {@code <PLATFORM_API_URL>/llm/<provider>} when the plan gave no base URL, with the platform's route for the
 * backend under it; direct mode the vendor's.
 *
 * @param routed whether calls go through the platform's gateway
 * @param chatBase base URL of the chat API (Anthropic: the URL before {@code /v1/messages} or
 *     {@code /model/...}; OpenAI: the URL before {@code /responses})
 * @param chatKey the chat credential (may be a sentinel), {@code null} when none is configured
 * @param embedBase base URL of the embeddings API
 * @param embedKey the embeddings credential
 * @param mainModel the env default of the main model
 * @param classificationModel the heartbeat gate's model
 * @param embeddingModel the embedding model; blank skips embeddings
 */
public record ProviderEndpoints(boolean routed, String chatBase, String chatKey, String embedBase,
        String embedKey, String mainModel, String classificationModel, String embeddingModel) {

    static ProviderEndpoints resolve(Settings s, ProviderKind p, List<String> warnings) {
        String api = s.nonBlank("PLATFORM_API_URL");
        String mainModel = model(s, p, "MODEL_ID");
        String gate = model(s, p, "CLASSIFICATION_MODEL_ID");
        String embedModel = p == ProviderKind.BEDROCK_MANTLE ? s.value("BEDROCK_EMBEDDING_MODEL_ID")
                : model(s, p, "EMBEDDING_MODEL_ID");
        ProviderEndpoints e;
        if (api != null) {
            String base = s.nonBlank("PLATFORM_INFERENCE_" + p.envName() + "_BASE_URL");
            String route = Settings.stripSlash(base != null ? base : Settings.stripSlash(api) + "/llm/" + p.wire());
            String key = s.nonBlank("PLATFORM_INFERENCE_" + p.envName() + "_API_KEY");
            e = routed(p, route, Settings.stripSlash(api), s.value("AWS_REGION"), key, mainModel, gate, embedModel);
        } else {
            e = direct(s, p, mainModel, gate, embedModel);
        }
        if (e.chatKey() == null && !(p == ProviderKind.BEDROCK && s.nonBlank("AWS_ACCESS_KEY_ID") != null)) {
            warnings.add("no LLM credential for " + p.wire() + ": agent runs will fail until one is set "
                    + "(deliver-only webhooks still work)");
        }
        return e;
    }

    /**
     * The platform's routes under a backend's base URL (platform.md, the Inference routes table): Bedrock by region
     * ({@code bedrock/<region>/model/...}), Mantle's Anthropic surface by region
     * ({@code bedrock-mantle/anthropic/<region>/v1/messages}), Foundry's Claude and GPT routes
     * ({@code azure/anthropic/v1/messages}, {@code azure/openai/deployments/...}); OpenAI's as it is. Mantle's
     * embeddings go to the Bedrock runtime route of the same region.
     */
    private static ProviderEndpoints routed(ProviderKind p, String route, String api, String region, String key,
                                            String main, String gate, String embed) {
        return switch (p) {
            case BEDROCK -> new ProviderEndpoints(true, route + "/" + region, key, route + "/" + region, key, main,
                    gate, embed);
            case BEDROCK_MANTLE -> new ProviderEndpoints(true, route + "/anthropic/" + region, key,
                    api + "/llm/bedrock/" + region, key, main, gate, embed);
            case AZURE -> new ProviderEndpoints(true, route + "/anthropic", key, route + "/openai", key, main, gate,
                    embed);
            case OPENAI -> new ProviderEndpoints(true, route, key, route, key, main, gate, embed);
        };
    }

    private static ProviderEndpoints direct(Settings s, ProviderKind p, String main, String gate, String embed) {
        String region = s.value("AWS_REGION");
        String bedrockRuntime = "https://bedrock-runtime." + region + ".amazonaws.com";
        String bedrockKey = s.nonBlank("AWS_BEARER_TOKEN_BEDROCK");
        switch (p) {
            case BEDROCK_MANTLE:
                return new ProviderEndpoints(false, "https://bedrock-mantle." + region + ".api.aws/anthropic",
                        bedrockKey, bedrockRuntime, bedrockKey, main, gate, embed);
            case AZURE: {
                String resource = s.nonBlank("AZURE_RESOURCE_NAME");
                String foundry = s.nonBlank("AZURE_FOUNDRY_BASE_URL");
                String chat = foundry != null ? Settings.stripSlash(foundry)
                        : resource == null ? null : "https://" + resource + ".services.ai.azure.com/anthropic/v1";
                // The chat base is stored without the trailing /v1 the Messages path adds back.
                String chatBase = chat == null ? null : chat.substring(0, chat.length() - "/v1".length());
                String embedBase = resource == null ? null : "https://" + resource + ".openai.azure.com/openai";
                String key = s.nonBlank("AZURE_API_KEY");
                return new ProviderEndpoints(false, chatBase, key, embedBase, key, main, gate, embed);
            }
            case OPENAI: {
                String base = s.nonBlank("OPENAI_BASE_URL");
                String b = Settings.stripSlash(base != null ? base : "https://api.openai.com/v1");
                String key = s.nonBlank("OPENAI_API_KEY");
                return new ProviderEndpoints(false, b, key, b, key, main, gate, embed);
            }
            default:
                return new ProviderEndpoints(false, bedrockRuntime, bedrockKey, bedrockRuntime, bedrockKey,
                        main, gate, embed);
        }
    }

    private static String model(Settings s, ProviderKind p, String suffix) {
        String prefix = p == ProviderKind.OPENAI ? "OPENAI_" : p == ProviderKind.AZURE ? "AZURE_" : "BEDROCK_";
        return s.value(prefix + suffix);
    }
}
