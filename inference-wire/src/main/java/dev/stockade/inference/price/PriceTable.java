package dev.stockade.inference.price;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.inference.internal.Json;
import dev.stockade.inference.internal.ModelMatch;
import dev.stockade.inference.internal.PriceRows;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Model prices by data provider, read from the JSON dumped from {@code @pydantic/genai-prices} (MIT) and matched
 * with that package's rules: the first row whose rule matches the lower-cased model wins, then the provider's
 * fallback providers, then the same with a compact date ({@code -20250514}) rewritten as {@code -2025-05-14}.
 * A bad row is reported in {@link #problems()} and never stops the other rows from pricing. Immutable.
 */
public final class PriceTable {

    /** The bundled data's resource path. */
    public static final String RESOURCE = "/dev/stockade/inference/prices.json";

    private static final int MAX_BYTES = 64 * 1024 * 1024;
    /** No real model name is longer; a longer one is unpriced instead of running every rule over it. */
    public static final int MAX_MODEL_CHARS = 512;
    private static final Pattern COMPACT_DATE =
            Pattern.compile("-(20\\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])(?=-|:|$)");

    private record Row(ModelMatch match, ModelPrice price) {
    }

    private record DataProvider(String id, List<String> fallbacks, List<Row> rows) {
    }

    private final String source;
    private final Map<String, DataProvider> providers;
    private final List<PriceProblem> problems;

    private PriceTable(String source, Map<String, DataProvider> providers, List<PriceProblem> problems) {
        this.source = source;
        this.providers = providers;
        this.problems = List.copyOf(problems);
    }

    /** The table shipped in this module. */
    public static PriceTable bundled() {
        try (InputStream in = PriceTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("price data resource missing: " + RESOURCE);
            }
            return read(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("price data resource unreadable", e);
        }
    }

    /** A table from a file in the bundled format (to refresh prices without a release). */
    public static PriceTable load(Path file) throws IOException {
        if (Files.size(file) > MAX_BYTES) {
            throw new IOException("price file larger than " + MAX_BYTES + " bytes: " + file);
        }
        return read(Files.readAllBytes(file));
    }

    /** A table from JSON bytes; throws only when the document as a whole is not price data. */
    public static PriceTable read(byte[] json) throws IOException {
        ObjectMapper mapper = Json.mapper(MAX_BYTES);
        JsonNode root = Json.object(mapper, json, 0, json.length)
                .orElseThrow(() -> new IOException("price data is not a JSON object"));
        if (!root.path("providers").isArray()) {
            throw new IOException("price data has no `providers` list");
        }
        List<PriceProblem> problems = new ArrayList<>();
        Map<String, DataProvider> providers = new LinkedHashMap<>();
        for (JsonNode provider : root.get("providers")) {
            String id = provider.path("id").asText("");
            if (id.isEmpty()) {
                problems.add(new PriceProblem("", "", "a provider has no id"));
                continue;
            }
            providers.putIfAbsent(id, provider(id, provider, problems));
        }
        return new PriceTable(root.path("source").asText("unknown"), Map.copyOf(providers), problems);
    }

    private static DataProvider provider(String id, JsonNode provider, List<PriceProblem> problems) {
        List<String> fallbacks = new ArrayList<>();
        provider.path("fallback_model_providers").forEach(f -> fallbacks.add(f.asText()));
        List<Row> rows = new ArrayList<>();
        for (JsonNode model : provider.path("models")) {
            String modelId = model.path("id").asText("");
            ModelMatch match;
            try {
                match = ModelMatch.read(model.get("match"));
            } catch (IllegalArgumentException bad) {
                problems.add(new PriceProblem(id, modelId, "row dropped: " + bad.getMessage()));
                continue;
            }
            try {
                rows.add(new Row(match, PriceRows.read(id, modelId, model)));
            } catch (IllegalArgumentException bad) {
                // kept without prices: its models stay unpriced rather than matching a broader row below
                problems.add(new PriceProblem(id, modelId, "row unpriced: " + bad.getMessage()));
                rows.add(new Row(match, new ModelPrice(id, modelId, Json.count(model.get("context_window")),
                        List.of())));
            }
        }
        return new DataProvider(id, List.copyOf(fallbacks), List.copyOf(rows));
    }

    /** Where the data came from, e.g. {@code npm @pydantic/genai-prices@0.1.8}. */
    public String source() {
        return source;
    }

    /** Rows that could not be used, in data order. */
    public List<PriceProblem> problems() {
        return problems;
    }

    /** Whether the data has a provider with this id. */
    public boolean hasProvider(String providerId) {
        return providers.containsKey(providerId);
    }

    /**
     * The row pricing {@code model} at data provider {@code providerId}, or empty when none matches. A matched
     * row may be unusable (empty schedule): its model is unpriced, never priced by another row.
     */
    public Optional<ModelPrice> find(String providerId, String model) {
        DataProvider provider = providers.get(providerId);
        if (provider == null || model == null || model.length() > MAX_MODEL_CHARS) {
            return Optional.empty();
        }
        String name = model.trim().toLowerCase(Locale.ROOT);
        Optional<ModelPrice> found = withFallbacks(provider, name);
        if (found.isPresent()) {
            return found;
        }
        String dated = hyphenatedDate(name);
        return dated.equals(name) ? Optional.empty() : withFallbacks(provider, dated);
    }

    private Optional<ModelPrice> withFallbacks(DataProvider provider, String name) {
        Optional<ModelPrice> own = firstMatch(provider, name);
        if (own.isPresent()) {
            return own;
        }
        for (String fallback : provider.fallbacks()) {
            DataProvider other = providers.get(fallback);
            Optional<ModelPrice> found = other == null ? Optional.empty() : firstMatch(other, name);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<ModelPrice> firstMatch(DataProvider provider, String name) {
        return provider.rows().stream().filter(row -> row.match().matches(name)).map(Row::price).findFirst();
    }

    private static boolean realDate(Matcher m) {
        try {
            java.time.LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)));
            return true;
        } catch (java.time.DateTimeException notADay) {
            return false;
        }
    }

    private static String hyphenatedDate(String name) {
        Matcher m = COMPACT_DATE.matcher(name);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = realDate(m) ? "-" + m.group(1) + "-" + m.group(2) + "-" + m.group(3) : m.group();
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }
}
