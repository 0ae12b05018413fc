package dev.stockade.inference.price;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading price data, its matching rules, and rows that cannot be used. */
class PriceTableTest {

    private static final String TABLE = """
            {"source": "test data", "providers": [
              {"id": "anthropic", "models": [
                {"id": "broken-negative", "match": {"starts_with": "claude-broken"}, "prices": {"input_mtok": -1, "output_mtok": 2}},
                {"id": "broken-text", "match": {"equals": "claude-text"}, "prices": {"input_mtok": "three"}},
                {"id": "broken-rule", "match": {"sounds_like": "claude"}, "prices": {"input_mtok": 1}},
                {"id": "broken-regex", "match": {"regex": "claude-(("}, "prices": {"input_mtok": 1}},
                {"id": "broken-audio", "match": {"equals": "claude-audio"}, "prices": {"input_mtok": 1, "input_audio_mtok": -4}},
                {"id": "later", "match": {"or": [{"starts_with": "claude-later"}, {"regex": "^claude-r[0-9]+$"}]},
                 "context_window": 200000, "prices": [
                   {"prices": {"input_mtok": 3, "output_mtok": 15}},
                   {"constraint": {"start_date": "2026-06-01", "type": "start_date"}, "prices": {"input_mtok": 2, "output_mtok": 10}}]},
                {"id": "catch-all", "match": {"contains": "claude"}, "prices": {"input_mtok": 100, "output_mtok": 100}},
                {"id": "bad-time", "match": {"equals": "bad-time"}, "prices": [
                   {"constraint": {"type": "time_of_date", "start_time": "25:00:00Z", "end_time": "06:00:00Z"}, "prices": {"input_mtok": 1}}]},
                {"id": "off-peak", "match": {"equals": "off-peak"}, "prices": [
                   {"prices": {"input_mtok": 2}},
                   {"constraint": {"type": "time_of_date", "start_time": "16:30:00Z", "end_time": "00:30:00Z"}, "prices": {"input_mtok": 1}},
                   {"constraint": {"type": "time_of_date", "start_time": "09:00:00+08:00", "end_time": "10:00:00+08:00"}, "prices": {"input_mtok": 0.5}}]}
              ]},
              {"id": "azure", "fallback_model_providers": ["anthropic"], "models": [
                {"id": "gpt-4o", "match": {"equals": "gpt-4o"}, "prices": {"input_mtok": 2.5, "output_mtok": 10}}]}
            ]}
            """;

    private static PriceTable table() throws IOException {
        return PriceTable.read(TABLE.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void badRowsAreReportedAndNeverStopOtherRowsFromPricing() throws IOException {
        PriceTable table = table();
        assertThat(table.problems()).extracting(PriceProblem::model)
                .containsExactly("broken-negative", "broken-text", "broken-rule", "broken-regex", "broken-audio", "bad-time");
        assertThat(table.find("anthropic", "claude-later-1").orElseThrow().modelId()).isEqualTo("later");
        assertThat(table.find("anthropic", "claude-r42").orElseThrow().modelId()).isEqualTo("later");
    }

    @Test
    void aBadRowKeepsItsModelsUnpricedInsteadOfFallingThroughToABroaderRow() throws IOException {
        ModelPrice broken = table().find("anthropic", "claude-broken-3").orElseThrow();
        assertThat(broken.modelId()).isEqualTo("broken-negative");
        assertThat(broken.ratesAt(Instant.now())).isEmpty();
        // A row whose rule is unreadable cannot match, so its models reach the next row.
        assertThat(table().find("anthropic", "claude-unknown").orElseThrow().modelId()).isEqualTo("catch-all");
    }

    @Test
    void textRulesIgnoreCaseAndTheModelIsTrimmed() throws IOException {
        assertThat(table().find("anthropic", "  CLAUDE-Later-x ").orElseThrow().modelId()).isEqualTo("later");
        assertThat(table().find("anthropic", "gpt-4o")).isEmpty();
        assertThat(table().find("nobody", "claude-later")).isEmpty();
        assertThat(table().find("anthropic", "claude-later-" + "x".repeat(PriceTable.MAX_MODEL_CHARS))).isEmpty();
    }

    @Test
    void fallbackProvidersAreSearchedAfterTheProvidersOwnRows() throws IOException {
        assertThat(table().find("azure", "gpt-4o").orElseThrow().modelId()).isEqualTo("gpt-4o");
        assertThat(table().find("azure", "claude-later-2").orElseThrow().modelId()).isEqualTo("later");
    }

    @Test
    void datedPricesApplyFromTheirStartDay() throws IOException {
        ModelPrice later = table().find("anthropic", "claude-later").orElseThrow();
        assertThat(later.ratesAt(Instant.parse("2026-05-31T23:59:59Z")).orElseThrow().stated(PriceKey.INPUT)
                .orElseThrow().base()).isEqualByComparingTo("3");
        assertThat(later.ratesAt(Instant.parse("2026-06-01T00:00:00Z")).orElseThrow().stated(PriceKey.INPUT)
                .orElseThrow().base()).isEqualByComparingTo("2");
        assertThat(later.contextWindow()).hasValue(200000);
    }

    @Test
    void timeOfDayPricesApplyWithinTheirUtcWindowWrappingPastMidnight() throws IOException {
        ModelPrice offPeak = table().find("anthropic", "off-peak").orElseThrow();
        assertThat(input(offPeak, "2026-03-01T12:00:00Z")).isEqualByComparingTo("2");
        assertThat(input(offPeak, "2026-03-01T16:30:00Z")).isEqualByComparingTo("1");
        assertThat(input(offPeak, "2026-03-01T00:29:59Z")).isEqualByComparingTo("1");
        assertThat(input(offPeak, "2026-03-01T00:30:00Z")).isEqualByComparingTo("2");
        assertThat(input(offPeak, "2026-03-01T01:15:00Z")).as("09:15 at +08:00").isEqualByComparingTo("0.5");
    }

    private static BigDecimal input(ModelPrice price, String at) {
        return price.ratesAt(Instant.parse(at)).orElseThrow().stated(PriceKey.INPUT).orElseThrow().base();
    }

    @Test
    void aCompactDateIsRetriedHyphenated() throws IOException {
        PriceTable table = PriceTable.read("""
                {"providers": [{"id": "p", "models": [
                  {"id": "m", "match": {"equals": "model-2025-05-14"}, "prices": {"input_mtok": 1}}]}]}
                """.getBytes(StandardCharsets.UTF_8));
        assertThat(table.find("p", "model-20250514")).isPresent();
        assertThat(table.find("p", "model-20250231")).as("not a calendar day").isEmpty();
    }

    @Test
    void loadReadsTheSameFormatFromAFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("prices.json");
        Files.writeString(file, TABLE);
        PriceTable loaded = PriceTable.load(file);
        assertThat(loaded.source()).isEqualTo("test data");
        assertThat(loaded.find("azure", "gpt-4o").orElseThrow().ratesAt(Instant.EPOCH).orElseThrow()
                .stated(PriceKey.OUTPUT).orElseThrow().base()).isEqualByComparingTo(new BigDecimal("10"));
    }

    @Test
    void aDocumentThatIsNotPriceDataIsRefusedWhole(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> PriceTable.read("[]".getBytes(StandardCharsets.UTF_8))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> PriceTable.read("{}".getBytes(StandardCharsets.UTF_8))).isInstanceOf(IOException.class);
        Path missing = dir.resolve("none.json");
        assertThatThrownBy(() -> PriceTable.load(missing)).isInstanceOf(IOException.class);
    }

    @Test
    void theBundledDataLoadsWithItsProvenanceAndNoProblems() {
        PriceTable table = PriceTable.bundled();
        assertThat(table.source()).isEqualTo("npm @pydantic/genai-prices@0.1.8");
        assertThat(table.problems()).isEmpty();
        for (String provider : new String[] {"anthropic", "aws", "azure", "openai", "openrouter"}) {
            assertThat(table.hasProvider(provider)).as(provider).isTrue();
        }
    }
}
