package dev.stockade.inference.price;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.inference.TokenUsage;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The bundled table against the price data's own calculator: price-cases.json holds, for every model row of our
 * five providers (plus region-prefixed, ARN, fallback and compact-date names), at three usages (the third a
 * realtime voice turn with audio and image parts), what {@code calcPrice} of
 * {@code @pydantic/genai-prices} 0.1.8 matched and charged (written by prices/expected.mjs). Same row, same
 * cost to the micro-USD (the package computes in binary floating point, so one micro-USD of slack).
 */
class PriceTableDifferentialTest {

    @Test
    void matchesAndCostsAgreeWithThePackagesCalculator() throws Exception {
        JsonNode fixture;
        try (InputStream in = getClass().getResourceAsStream("/dev/stockade/inference/price-cases.json")) {
            fixture = new ObjectMapper().readTree(in);
        }
        PriceTable table = PriceTable.bundled();
        assertThat(fixture.path("source").asText()).isEqualTo(table.source());
        List<String> disagreements = new ArrayList<>();
        int priced = 0;
        for (JsonNode c : fixture.path("cases")) {
            String provider = c.get(0).asText();
            String model = c.get(1).asText();
            Instant at = Instant.parse(c.get(2).asText());
            long cacheRead = c.get(4).asLong();
            long cacheWrite = c.get(5).asLong();
            TokenUsage usage = new TokenUsage(c.get(3).asLong() - cacheRead - cacheWrite, c.get(7).asLong(),
                    cacheRead, cacheWrite, c.get(6).asLong(), c.get(8).asLong(), OptionalLong.empty(),
                    c.get(12).asLong()).withMedia(media(c));
            Optional<ModelPrice> found = table.find(provider, model);
            String expectedRow = c.get(10).isNull() ? null : c.get(10).asText();
            String row = found.map(ModelPrice::modelId).orElse(null);
            if (!java.util.Objects.equals(expectedRow, row)) {
                disagreements.add(provider + " " + model + ": row " + row + ", expected " + expectedRow);
                continue;
            }
            if (expectedRow == null) {
                continue;
            }
            long expected = new BigDecimal(c.get(11).asText()).movePointRight(6).setScale(0, RoundingMode.HALF_UP)
                    .longValueExact();
            long actual = found.get().ratesAt(at).orElseThrow().cost(usage).setScale(0, RoundingMode.HALF_UP)
                    .longValueExact();
            priced++;
            if (Math.abs(actual - expected) > 1) {
                disagreements.add(provider + " " + model + " at " + at + ": " + actual + " µUSD, expected " + expected);
            }
        }
        assertThat(disagreements).isEmpty();
        assertThat(priced).as("cases priced").isGreaterThan(2500);
    }

    /** The package counts each modality with its cached part; Stockade's input audio and image are uncached. */
    private static TokenUsage.Media media(JsonNode c) {
        long cachedAudio = c.get(14).asLong();
        long cachedImage = c.get(17).asLong();
        return new TokenUsage.Media(c.get(13).asLong() - cachedAudio, cachedAudio, c.get(15).asLong(),
                c.get(16).asLong() - cachedImage, cachedImage);
    }
}
