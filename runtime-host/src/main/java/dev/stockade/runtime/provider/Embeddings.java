package dev.stockade.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Embeddings at {@link Embedder#DIMENSIONS} dimensions from one of three wire formats: the OpenAI
 * embeddings API ({@code <base>/embeddings}), an Azure OpenAI deployment
 * ({@code <base>/deployments/<name>/embeddings?api-version=...}, key as {@code api-key}), or Titan on
 * the Bedrock runtime ({@code <base>/model/<id>/invoke}). A vector of another size is refused.
 */
public final class Embeddings implements Embedder {
    /** Which wire format. */
    public enum Wire { OPENAI, AZURE, TITAN }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ProviderHttp http;
    private final Wire wire;
    private final String base;
    private final String key;
    private final String model;
    private final String apiVersion;
    private final AwsSigV4 sigv4;

    public Embeddings(ProviderHttp http, Wire wire, String base, String key, String model, String apiVersion) {
        this(http, wire, base, key, model, apiVersion, null);
    }

    /** As above; Titan on the Bedrock runtime without a key signs with {@code sigv4} when given. */
    public Embeddings(ProviderHttp http, Wire wire, String base, String key, String model, String apiVersion,
                      AwsSigV4 sigv4) {
        this.sigv4 = wire == Wire.TITAN ? sigv4 : null;
        this.http = http;
        this.wire = wire;
        this.base = base;
        this.key = key;
        this.model = model;
        this.apiVersion = apiVersion;
    }

    @Override
    public float[] embed(String text) throws ProviderException {
        if (base == null || (key == null && sigv4 == null)) {
            throw new ProviderException("no embeddings endpoint or credential is configured", 0, false);
        }
        ObjectNode body = JSON.createObjectNode();
        String url;
        Map<String, String> headers;
        switch (wire) {
            case TITAN -> {
                body.put("inputText", text).put("dimensions", DIMENSIONS).put("normalize", true);
                url = base + "/model/" + URLEncoder.encode(model, StandardCharsets.UTF_8) + "/invoke";
                headers = key != null ? Map.of("authorization", "Bearer " + key)
                        : sigv4.sign("POST", url, Map.of(), AnthropicMessages.bytes(body));
            }
            case AZURE -> {
                body.put("input", text).put("dimensions", DIMENSIONS);
                url = base + "/deployments/" + URLEncoder.encode(model, StandardCharsets.UTF_8)
                        + "/embeddings?api-version=" + URLEncoder.encode(apiVersion, StandardCharsets.UTF_8);
                headers = Map.of("api-key", key);
            }
            default -> {
                body.put("model", model).put("input", text).put("dimensions", DIMENSIONS);
                url = base + "/embeddings";
                headers = Map.of("authorization", "Bearer " + key);
            }
        }
        JsonNode res;
        try (InputStream in = http.post("embedding", url, headers, AnthropicMessages.bytes(body))) {
            res = JSON.readTree(in);
        } catch (IOException e) {
            throw new ProviderException("the embeddings answer was unreadable", 0, false);
        }
        JsonNode vec = wire == Wire.TITAN ? res.path("embedding") : res.path("data").path(0).path("embedding");
        if (vec.size() != DIMENSIONS) {
            throw new ProviderException("the embedding deployment returned " + vec.size() + " dimensions, not "
                    + DIMENSIONS, 0, false);
        }
        float[] out = new float[DIMENSIONS];
        for (int i = 0; i < DIMENSIONS; i++) {
            out[i] = (float) vec.get(i).asDouble();
        }
        return out;
    }
}
