package dev.stockade.inference.price;

import dev.stockade.inference.RequestShape;
import dev.stockade.inference.TokenUsage;
import dev.stockade.inference.WireFormat;
import dev.stockade.policy.model.Provider;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Prices calls in integer micro-USD: what a metered call cost, and the most a request can cost so the proxy
 * can reserve it before forwarding. Exact decimal arithmetic, rounded half-up to a whole micro-USD once per
 * call. An unpriced model gives empty, never a guess. Thread-safe.
 */
public final class Costs {

    /**
     * Bounds used when the request or the data leaves one open.
     *
     * @param defaultContextWindow input (and output) bound for a model whose context window the data omits
     * @param fallbackOutputTokens output bound for a request without one, for a model whose window is unknown
     */
    public record Options(long defaultContextWindow, long fallbackOutputTokens) {

        /** One million tokens of window, 32,000 tokens of output. */
        public static final Options DEFAULT = new Options(1_000_000, 32_000);

        public Options {
            if (defaultContextWindow <= 0 || fallbackOutputTokens <= 0) {
                throw new IllegalArgumentException("bounds must be positive");
            }
        }
    }

    private final PriceTable table;
    private final Clock clock;
    private final Options options;

    public Costs(PriceTable table, Clock clock, Options options) {
        this.table = Objects.requireNonNull(table);
        this.clock = Objects.requireNonNull(clock);
        this.options = Objects.requireNonNull(options);
    }

    /** The price row for a model as a backend serves it over a wire format, or empty when unpriced. */
    public Optional<ModelPrice> price(Provider provider, WireFormat format, String model) {
        if (model == null || model.isBlank()) {
            return Optional.empty();
        }
        for (Lookup lookup : lookups(provider, format, model)) {
            Optional<ModelPrice> found = table.find(lookup.dataProvider(), lookup.model());
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /**
     * What a call cost in micro-USD, or empty when it cannot be priced. OpenRouter's and LiteLLM's own reported
     * cost wins over the table; a LiteLLM call without one is empty (the spec counts it as zero).
     */
    public OptionalLong cost(Provider provider, WireFormat format, String model, TokenUsage usage) {
        if (usage.reportedCostMicros().isPresent()
                && (provider == Provider.OPENROUTER || provider == Provider.LITELLM)) {
            return usage.reportedCostMicros();
        }
        if (provider == Provider.LITELLM) {
            return OptionalLong.empty();
        }
        return price(provider, format, model).flatMap(p -> p.ratesAt(clock.instant()))
                .map(rates -> micros(rates.cost(usage))).orElse(OptionalLong.empty());
    }

    /**
     * The most the request can cost in micro-USD, to reserve before forwarding; empty when the model is unpriced
     * (unpriced spend does not count toward limits, so nothing is reserved). Input is bounded by the body's
     * bound and the context window, output by the request's bound, else the context window.
     */
    public OptionalLong maxCost(Provider provider, RequestShape shape) {
        Optional<ModelPrice> price = shape.model().flatMap(model -> price(provider, shape.format(), model));
        Optional<Rates> rates = price.flatMap(p -> p.ratesAt(clock.instant()));
        if (rates.isEmpty()) {
            return OptionalLong.empty();
        }
        OptionalLong window = price.get().contextWindow();
        long windowBound = window.orElse(options.defaultContextWindow());
        long input = shape.unboundedInput() ? windowBound : Math.min(shape.inputTokenBound(), windowBound);
        long output = shape.maxOutputTokens().orElse(
                window.isPresent() ? window.getAsLong() : options.fallbackOutputTokens());
        return micros(rates.get().maxCost(input, output));
    }

    private record Lookup(String dataProvider, String model) {
    }

    private List<Lookup> lookups(Provider provider, WireFormat format, String model) {
        String family = switch (format.family()) {
            case ANTHROPIC -> "anthropic";
            case OPENAI -> "openai";
            case BEDROCK -> "aws";
        };
        return switch (provider) {
            case BEDROCK -> List.of(new Lookup("aws", model));
            case BEDROCK_MANTLE -> List.of(new Lookup("aws", model), new Lookup(family, model));
            case AZURE -> List.of(new Lookup("azure", model));
            case OPENAI -> List.of(new Lookup("openai", model));
            case OPENROUTER -> List.of(new Lookup("openrouter", model));
            case LITELLM -> litellm(model, family);
        };
    }

    /** LiteLLM names models {@code provider/model}; a known prefix picks that provider's prices. */
    private List<Lookup> litellm(String model, String family) {
        int slash = model.indexOf('/');
        if (slash > 0 && slash < model.length() - 1) {
            String prefix = model.substring(0, slash).trim().toLowerCase(java.util.Locale.ROOT);
            String dataProvider = prefix.equals("bedrock") || prefix.equals("bedrock_converse") ? "aws" : prefix;
            if (table.hasProvider(dataProvider)) {
                return List.of(new Lookup(dataProvider, model.substring(slash + 1)));
            }
        }
        return List.of(new Lookup(family, model));
    }

    private static OptionalLong micros(BigDecimal exact) {
        BigDecimal rounded = exact.setScale(0, RoundingMode.HALF_UP);
        // Past a long of micro-USD only absurd token counts land; saturating keeps a reservation maximal.
        return OptionalLong.of(rounded.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0
                ? Long.MAX_VALUE : rounded.longValueExact());
    }
}
