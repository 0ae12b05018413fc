package dev.stockade.inference.price;

import dev.stockade.inference.TokenUsage;
import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The prices of one model at one time. A bucket without a price of its own is priced as the price data's
 * calculator prices it: cache reads and writes fall back to the input price, one-hour cache writes to the cache
 * write price, reasoning to the output price; input, output or web searches without any price cost nothing.
 * Audio and image parts without their own price stay at their bucket's text price (cached audio or images at the
 * cache read price, or at the audio or image input price when the data has no cache read price).
 */
public final class Rates {

    private final Map<PriceKey, Rate> rates;

    public Rates(Map<PriceKey, Rate> rates) {
        this.rates = rates.isEmpty() ? Map.of() : new EnumMap<>(rates);
    }

    /** The rate of {@code key} as the data states it (no fallback). */
    public Optional<Rate> stated(PriceKey key) {
        return Optional.ofNullable(rates.get(key));
    }

    /** A price per thousand requests in USD is this many micro-USD per request per unit of price. */
    private static final BigDecimal MICROS_PER_THOUSAND = BigDecimal.valueOf(1_000);

    /**
     * The exact cost in micro-USD (not rounded): each bucket times its price at the call's input tier, web
     * searches at their price per thousand.
     */
    public BigDecimal cost(TokenUsage usage) {
        long tier = usage.totalInputTokens();
        TokenUsage.Media media = usage.media();
        long write5m = usage.cacheWriteTokens() - usage.cacheWrite1hTokens();
        // INVARIANT (TokenUsage): every media part lies inside its bucket, so the text remainders are >= 0.
        long textInput = usage.inputTokens() - media.inputAudioTokens() - media.inputImageTokens();
        long textRead = usage.cacheReadTokens() - media.cacheReadAudioTokens() - media.cacheReadImageTokens();
        long textOutput = usage.outputTokens() - usage.reasoningTokens() - media.outputAudioTokens();
        return times(textInput, rate(PriceKey.INPUT).at(tier))
                .add(times(media.inputAudioTokens(), rate(PriceKey.INPUT_AUDIO).at(tier)))
                .add(times(media.inputImageTokens(), rate(PriceKey.INPUT_IMAGE).at(tier)))
                .add(times(textRead, rate(PriceKey.CACHE_READ).at(tier)))
                .add(times(media.cacheReadAudioTokens(), rate(PriceKey.CACHE_AUDIO_READ).at(tier)))
                .add(times(media.cacheReadImageTokens(), rate(PriceKey.CACHE_IMAGE_READ).at(tier)))
                .add(times(write5m, rate(PriceKey.CACHE_WRITE).at(tier)))
                .add(times(usage.cacheWrite1hTokens(), rate(PriceKey.CACHE_WRITE_1H).at(tier)))
                .add(times(textOutput, rate(PriceKey.OUTPUT).at(tier)))
                .add(times(usage.reasoningTokens(), rate(PriceKey.OUTPUT_REASONING).at(tier)))
                .add(times(media.outputAudioTokens(), rate(PriceKey.OUTPUT_AUDIO).at(tier)))
                .add(times(usage.webSearches(), rate(PriceKey.WEB_SEARCHES).at(tier).multiply(MICROS_PER_THOUSAND)));
    }

    /**
     * The most a call with at most {@code inputTokens} input and {@code outputTokens} output tokens can cost, in
     * micro-USD (not rounded): every input token at the highest input-side price, every output token at the
     * highest output-side price (audio and image prices included), each at the highest tier that input can reach.
     */
    public BigDecimal maxCost(long inputTokens, long outputTokens) {
        BigDecimal input = max(PriceKey.INPUT, inputTokens, PriceKey.CACHE_READ, PriceKey.CACHE_WRITE,
                PriceKey.CACHE_WRITE_1H, PriceKey.INPUT_AUDIO, PriceKey.CACHE_AUDIO_READ, PriceKey.INPUT_IMAGE,
                PriceKey.CACHE_IMAGE_READ);
        BigDecimal output = max(PriceKey.OUTPUT, inputTokens, PriceKey.OUTPUT_REASONING, PriceKey.OUTPUT_AUDIO);
        return times(inputTokens, input).add(times(outputTokens, output));
    }

    private BigDecimal max(PriceKey first, long inputTokens, PriceKey... others) {
        BigDecimal highest = rate(first).highestUpTo(inputTokens);
        for (PriceKey key : others) {
            BigDecimal candidate = rate(key).highestUpTo(inputTokens);
            highest = candidate.compareTo(highest) > 0 ? candidate : highest;
        }
        return highest;
    }

    /** The rate that prices {@code key}'s tokens, after the fallbacks. */
    Rate rate(PriceKey key) {
        Rate own = rates.get(key);
        if (own != null) {
            return own;
        }
        return switch (key) {
            case CACHE_READ, CACHE_WRITE -> rate(PriceKey.INPUT);
            case CACHE_WRITE_1H -> rate(PriceKey.CACHE_WRITE);
            case OUTPUT_REASONING, OUTPUT_AUDIO -> rate(PriceKey.OUTPUT);
            case INPUT_AUDIO, INPUT_IMAGE -> rate(PriceKey.INPUT);
            // The data's calculator prices cached audio inside the cache read bucket when that has a price, else
            // inside the audio input bucket (a row pricing both without the cached-audio price it refuses).
            case CACHE_AUDIO_READ -> rates.containsKey(PriceKey.CACHE_READ) ? rate(PriceKey.CACHE_READ)
                    : rate(PriceKey.INPUT_AUDIO);
            case CACHE_IMAGE_READ -> rates.containsKey(PriceKey.CACHE_READ) ? rate(PriceKey.CACHE_READ)
                    : rate(PriceKey.INPUT_IMAGE);
            case INPUT, OUTPUT, WEB_SEARCHES -> Rate.flat(BigDecimal.ZERO);
        };
    }

    private static BigDecimal times(long tokens, BigDecimal price) {
        return BigDecimal.valueOf(tokens).multiply(price);
    }
}
