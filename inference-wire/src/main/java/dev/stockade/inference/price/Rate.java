package dev.stockade.inference.price;

import java.math.BigDecimal;
import java.util.List;

/**
 * One price in USD per million tokens, which is numerically micro-USD per token, held as an exact decimal.
 * Tiers raise it by context length: the price of the highest tier whose start the call's total input tokens
 * exceed applies to the whole bucket, as in the price data's own calculator.
 *
 * @param base  the price below the first tier
 * @param tiers the tiers, by ascending start
 */
public record Rate(BigDecimal base, List<Tier> tiers) {

    /** A tier: from more than {@code start} total input tokens, {@code price} applies. */
    public record Tier(long start, BigDecimal price) {
    }

    public Rate {
        tiers = tiers.stream().sorted((a, b) -> Long.compare(a.start(), b.start())).toList();
    }

    /** A flat price. */
    public static Rate flat(BigDecimal usdPerMillion) {
        return new Rate(usdPerMillion, List.of());
    }

    /** The price for a call with {@code totalInputTokens} input tokens, cache included. */
    public BigDecimal at(long totalInputTokens) {
        BigDecimal price = base;
        for (Tier tier : tiers) {
            if (totalInputTokens > tier.start()) {
                price = tier.price();
            }
        }
        return price;
    }

    /** The highest price any call up to {@code totalInputTokens} input tokens can pay. */
    public BigDecimal highestUpTo(long totalInputTokens) {
        BigDecimal highest = base;
        for (Tier tier : tiers) {
            if (totalInputTokens > tier.start() && tier.price().compareTo(highest) > 0) {
                highest = tier.price();
            }
        }
        return highest;
    }
}
