package dev.stockade.api.inference;

import dev.stockade.api.kernel.config.InferenceConfig;
import dev.stockade.inference.RequestShape;
import dev.stockade.inference.TokenUsage;
import dev.stockade.inference.WireFormat;
import dev.stockade.inference.price.Costs;
import dev.stockade.inference.price.PriceProblem;
import dev.stockade.inference.price.PriceTable;
import dev.stockade.policy.model.Provider;
import io.micronaut.context.exceptions.ConfigurationException;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What calls cost: the price table shipped with the platform (or {@code inference.pricesFile}), read once at boot.
 * A row the table cannot use is logged and skipped, never fatal: it leaves its own model unpriced and every other
 * model priced. An unpriced model is reserved and counted at zero (spec: spend without a price is not counted).
 */
@Singleton
class Pricing {
    private static final Logger LOG = LoggerFactory.getLogger(Pricing.class);

    private final Costs costs;
    private final PriceTable table;

    Pricing(InferenceConfig config, Clock clock) {
        this.table = load(config.pricesFile());
        this.costs = new Costs(table, clock, Costs.Options.DEFAULT);
        for (PriceProblem p : table.problems()) {
            LOG.warn("price table {}: {} {} skipped: {}", table.source(), p.provider(), p.model(), p.message());
        }
    }

    private static PriceTable load(String file) {
        if (file == null || file.isBlank()) {
            return PriceTable.bundled();
        }
        try {
            return PriceTable.load(Path.of(file));
        } catch (IOException | RuntimeException e) {
            throw new ConfigurationException("inference.pricesFile: `" + file + "` cannot be read as a price table ("
                    + e.getMessage() + ")");
        }
    }

    /** The most {@code shape} can cost at {@code provider}, in micro-USD; zero when its model is unpriced. */
    long maxCostMicros(Provider provider, RequestShape shape) {
        return costs.maxCost(provider, shape).orElse(0);
    }

    /** What a call cost, in micro-USD; empty when it cannot be priced. */
    Optional<Long> costMicros(Provider provider, WireFormat format, String model, TokenUsage usage) {
        var cost = costs.cost(provider, format, model, usage);
        return cost.isPresent() ? Optional.of(cost.getAsLong()) : Optional.empty();
    }

    /** Where the prices come from, for the providers listing and the docs. */
    String source() {
        return table.source();
    }
}
