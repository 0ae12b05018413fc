package dev.stockade.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.json.StrictJson;
import dev.stockade.runtime.observe.Log;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Context windows by model id: a bundled catalog fixed at build time, optionally overlaid once at
 * startup from MODEL_CATALOG_URL (a registry in the common {@code {model: {max_input_tokens}}} shape),
 * and overridden for every model by CONTEXT_WINDOW_TOKENS. Ids are normalised (regional profile
 * prefix, vendor prefix, version and date suffixes dropped) before lookup.
 */
public final class ModelCatalog {
    private final Map<String, Integer> bundled;
    private final Map<String, Integer> refreshed;
    private final Integer override;

    private ModelCatalog(Map<String, Integer> bundled, Map<String, Integer> refreshed, Integer override) {
        this.bundled = bundled;
        this.refreshed = refreshed;
        this.override = override;
    }

    /** The bundled catalog, the registry layer when {@code url} is set, and the override. */
    public static ModelCatalog load(String url, Integer override) {
        Map<String, Integer> bundled = new HashMap<>();
        try (InputStream in = ModelCatalog.class.getResourceAsStream("/model-windows.json")) {
            StrictJson.object(in.readAllBytes()).fields().forEachRemaining(e -> bundled.put(e.getKey(), e.getValue().asInt()));
        } catch (IOException | NullPointerException e) {
            Log.error("catalog.bundled_unreadable");
        }
        return new ModelCatalog(bundled, url == null ? Map.of() : fetch(url), override);
    }

    private static Map<String, Integer> fetch(String url) {
        Map<String, Integer> out = new HashMap<>();
        try {
            HttpClient c = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<byte[]> r = c.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                Log.warn("catalog.refresh_failed", "status", r.statusCode());
                return out;
            }
            JsonNode root = StrictJson.object(r.body());
            root.fields().forEachRemaining(e -> {
                JsonNode v = e.getValue();
                int w = v.isInt() ? v.asInt() : v.path("max_input_tokens").asInt(v.path("max_tokens").asInt(0));
                if (w > 0) {
                    out.put(normalise(e.getKey()), w);
                }
            });
            Log.info("catalog.refreshed", "models", out.size());
        } catch (IOException | IllegalArgumentException e) {
            Log.warn("catalog.refresh_failed", "error", e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }

    /** The window for {@code model}, or {@code null} when unknown (the context indicator is hidden). */
    public Integer window(String model) {
        if (override != null) {
            return override;
        }
        if (model == null) {
            return null;
        }
        String n = normalise(model);
        Integer w = refreshed.get(n);
        return w != null ? w : bundled.get(n);
    }

    static String normalise(String model) {
        String m = model.strip().toLowerCase(Locale.ROOT);
        int slash = m.lastIndexOf('/');
        m = slash >= 0 ? m.substring(slash + 1) : m;
        m = m.replaceFirst("^(us|eu|apac|global|jp|au)\\.", "").replaceFirst("^(anthropic|openai)\\.", "");
        return m.replaceFirst("-v\\d+(:\\d+)?$", "").replaceFirst("-\\d{8}$", "");
    }
}
