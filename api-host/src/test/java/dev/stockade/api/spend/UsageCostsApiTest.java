package dev.stockade.api.spend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.model.Provider;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code /v1/orgs/{orgId}/usage-costs} and {@code .../timeseries} over ledger rows written by the ledger itself. */
@MicronautTest(transactional = false)
class UsageCostsApiTest extends SpendPlatformTest {
    private static final Instant T0 = Instant.parse("2026-02-10T08:30:00Z");
    /** The token fields of a usage answer and the ledger column each one sums. */
    private static final Map<String, String> BUCKETS = buckets();

    @Inject
    Sql sql;

    private String org;
    private String p1;
    private String p2;
    private String sandbox;

    @BeforeEach
    void usage() {
        org = world.org();
        p1 = world.project(org, "p1");
        p2 = world.project(org, "p2");
        sandbox = world.sandbox(p1, "s");
        world.spend(org, p1, sandbox, "1.5", T0);
        world.spend(org, p1, sandbox, "0.25", T0.plusSeconds(1800));
        world.spend(org, p1, null, "2", T0.plusSeconds(3 * 3600));
        ledger.record(SpendWorld.usage(org, p2, null, Provider.LITELLM, null, true, T0.plusSeconds(86_400)));
        ledger.record(SpendWorld.usage(org, p2, null, Provider.OPENAI, SpendWorld.micros("0.1"), false,
                T0.plusSeconds(86_400)));
        world.spend(org, p1, sandbox, "7", T0.minusSeconds(40 * 86_400)); // before the range below
    }

    private JsonNode get(String query) {
        var r = http.get("/v1/orgs/" + org + "/usage-costs" + query, ownerToken());
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    private static String range() {
        return "from=2026-02-01T00:00:00Z&to=2026-03-01T00:00:00Z";
    }

    @Test
    void totalsAreGroupedByProjectSandboxProviderAndModelMostCostlyFirst() {
        JsonNode all = get("?" + range());
        assertThat(all.path("total").path("costUsd").asText()).isEqualTo("3.850000");
        assertThat(all.path("total").path("calls").asLong()).isEqualTo(5);
        assertThat(all.path("total").path("inputTokens").asLong()).isEqualTo(5000);
        assertThat(all.path("total").path("unpricedCalls").asLong()).isEqualTo(1);
        assertThat(all.path("total").path("unmeteredCalls").asLong()).isEqualTo(1);
        assertThat(all.path("groupBy")).hasSize(4);
        JsonNode first = all.path("groups").get(0);
        assertThat(first.path("projectId").asText()).isEqualTo(p1);
        assertThat(first.path("sandboxId").isNull()).isTrue();
        assertThat(first.path("usage").path("costUsd").asText()).isEqualTo("2.000000");
        assertThat(all.path("groups").get(1).path("sandboxId").asText()).isEqualTo(sandbox);
        assertThat(all.path("groups").get(1).path("usage").path("calls").asLong()).isEqualTo(2);

        JsonNode byProject = get("?" + range() + "&groupBy=project");
        assertThat(byProject.path("groups")).hasSize(2);
        assertThat(byProject.path("groups").get(0).path("usage").path("costUsd").asText()).isEqualTo("3.750000");
        assertThat(byProject.path("groups").get(0).path("provider").isNull()).isTrue();
        JsonNode byProvider = get("?" + range() + "&groupBy=provider&projectId=" + p2);
        assertThat(byProvider.path("groups")).hasSize(2);
        assertThat(byProvider.path("groups").get(0).path("provider").asText()).isEqualTo("openai");
        assertThat(get("?" + range() + "&groupBy=").path("groups")).isEmpty();
        assertThat(get("?" + range() + "&sandboxId=" + sandbox + "&groupBy=").path("total").path("costUsd").asText())
                .isEqualTo("1.750000");
    }

    @Test
    void timeseriesBucketsAreUtcHoursOrDaysWithEmptyBucketsIncluded() {
        JsonNode hours = get("/timeseries?interval=hour&from=2026-02-10T08:00:00Z&to=2026-02-10T12:00:00Z");
        assertThat(hours.path("buckets")).hasSize(4);
        assertThat(hours.path("buckets").get(0).path("start").asText()).isEqualTo("2026-02-10T08:00:00Z");
        assertThat(hours.path("buckets").get(0).path("usage").path("costUsd").asText()).isEqualTo("1.500000");
        assertThat(hours.path("buckets").get(1).path("usage").path("costUsd").asText()).isEqualTo("0.250000");
        assertThat(hours.path("buckets").get(2).path("usage").path("calls").asLong()).isZero();
        assertThat(hours.path("buckets").get(3).path("usage").path("costUsd").asText()).isEqualTo("2.000000");
        JsonNode days = get("/timeseries?" + range());
        assertThat(days.path("interval").asText()).isEqualTo("day");
        assertThat(days.path("buckets")).hasSize(28);
        assertThat(days.path("buckets").get(9).path("usage").path("calls").asLong()).isEqualTo(3);
        assertThat(days.path("buckets").get(10).path("usage").path("calls").asLong()).isEqualTo(2);
    }

    @Test
    void theDefaultRangeIsThisCalendarMonthInUtc() {
        Instant now = Instant.now();
        world.spend(org, p2, null, "0.5", now.minusSeconds(1));
        world.spend(org, p2, null, "9", SpendPeriod.MONTH.start(now).minusSeconds(1));
        JsonNode report = get("");
        assertThat(report.path("from").asText()).isEqualTo(SpendPeriod.MONTH.start(now).toString());
        assertThat(report.path("total").path("costUsd").asText()).isEqualTo("0.500000");
    }

    @Test
    void unboundedOrMalformedQueriesAreRefused() {
        String base = "/v1/orgs/" + org + "/usage-costs";
        String owner = ownerToken();
        for (String q : new String[] {"?from=2025-01-01T00:00:00Z&to=2026-02-01T00:00:00Z", "?from=yesterday",
                "?from=2026-02-02T00:00:00Z&to=2026-02-01T00:00:00Z", "?groupBy=colour", "?groupBy=model,model",
                "?provider=anthropic", "?projectId=nope", "?colour=red", "?from=2026-02-01T00:00:00Z&from=x"}) {
            assertThat(problem(http.get(base + q, owner), 400)).as(q).isEqualTo("invalid_parameter");
        }
        assertThat(problem(http.get(base + "/timeseries?interval=minute", owner), 400)).isEqualTo("invalid_parameter");
        assertThat(problem(http.get(base + "/timeseries?interval=hour&from=2026-01-01T00:00:00Z"
                + "&to=2026-03-01T00:00:00Z", owner), 400)).isEqualTo("invalid_parameter");
        String member = createApiToken(owner, org, "reader");
        assertThat(http.get(base, member).status()).isEqualTo(200); // an org API token reads usage, like audit
    }

    private static Map<String, String> buckets() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("inputTokens", "input_tokens");
        m.put("outputTokens", "output_tokens");
        m.put("cacheReadTokens", "cache_read_tokens");
        m.put("cacheWriteTokens", "cache_write_tokens");
        m.put("cacheWrite1hTokens", "cache_write_1h_tokens");
        m.put("reasoningTokens", "reasoning_tokens");
        m.put("inputAudioTokens", "input_audio_tokens");
        m.put("cacheReadAudioTokens", "cache_read_audio_tokens");
        m.put("outputAudioTokens", "output_audio_tokens");
        m.put("inputImageTokens", "input_image_tokens");
        m.put("cacheReadImageTokens", "cache_read_image_tokens");
        m.put("webSearches", "web_searches");
        return m;
    }

    /** The answer's token fields, in the order of {@link #BUCKETS}. */
    private static List<Long> tokens(JsonNode usage) {
        return BUCKETS.keySet().stream().map(f -> {
            assertThat(usage.has(f)).as(f + " in " + usage).isTrue();
            return usage.path(f).asLong();
        }).toList();
    }

    @Test
    void everyPricedBucketIsStoredInItsColumnAndSummedInEveryRead() {
        String o = world.org();
        String p = world.project(o, "buckets");
        String s = world.sandbox(p, "voice");
        TokenBuckets call = new TokenBuckets(5_000, 900, 2_000, 400, 100, 60, 700, 300, 250, 80, 40, 2);
        long id = ledger.record(new UsageLedger.Usage(UUID.fromString(o), UUID.fromString(p), UUID.fromString(s),
                Provider.OPENAI, "gpt-realtime", call, 12_345L, true, T0));
        ledger.record(new UsageLedger.Usage(UUID.fromString(o), UUID.fromString(p), UUID.fromString(s),
                Provider.OPENAI, "gpt-realtime", call, 12_345L, true, T0.plusSeconds(60)));
        List<Long> one = List.of(5_000L, 900L, 2_000L, 400L, 100L, 60L, 700L, 300L, 250L, 80L, 40L, 2L);
        List<Long> two = one.stream().map(n -> 2 * n).toList();

        // each count in the column of its name, read by name
        List<Long> stored = sql.query("SELECT " + String.join(", ", BUCKETS.values()) + " FROM usage_ledger"
                + " WHERE id = ?", List.of(id), rs -> {
                    Long[] n = new Long[BUCKETS.size()];
                    for (int i = 0; i < n.length; i++) {
                        n[i] = rs.getLong(i + 1);
                    }
                    return Arrays.asList(n);
                }).get(0);
        assertThat(stored).isEqualTo(one);

        String range = "from=2026-02-10T00:00:00Z&to=2026-02-11T00:00:00Z";
        JsonNode report = http.get("/v1/orgs/" + o + "/usage-costs?groupBy=model&" + range, ownerToken()).body();
        assertThat(tokens(report.path("total"))).isEqualTo(two);
        assertThat(report.path("total").path("costUsd").asText()).isEqualTo("0.024690");
        assertThat(tokens(report.path("groups").get(0).path("usage"))).isEqualTo(two);
        JsonNode series = http.get("/v1/orgs/" + o + "/usage-costs/timeseries?" + range, ownerToken()).body();
        assertThat(tokens(series.path("buckets").get(0).path("usage"))).isEqualTo(two);
    }

    @Test
    void rowsWrittenBeforeTheLedgerKeptTheBucketsReadAsZeroParts() {
        String o = world.org();
        String p = world.project(o, "old");
        // the INSERT of V40's ledger, naming only the columns it had
        sql.update("INSERT INTO usage_ledger (org_id, project_id, sandbox_id, provider, model, input_tokens,"
                + " output_tokens, cost_micros, metered, occurred_at) VALUES (?, ?, NULL, 'bedrock', 'claude-sonnet',"
                + " 3000, 700, 5000, true, ?)", List.of(UUID.fromString(o), UUID.fromString(p), T0));
        JsonNode total = http.get("/v1/orgs/" + o + "/usage-costs?groupBy=&from=2026-02-01T00:00:00Z"
                + "&to=2026-03-01T00:00:00Z", ownerToken()).body().path("total");
        assertThat(total.path("calls").asLong()).isEqualTo(1);
        assertThat(tokens(total)).containsExactly(3000L, 700L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L);
    }

    @Test
    void theDatabaseRefusesANegativeBucket() {
        String o = world.org();
        String p = world.project(o, "negative");
        for (String column : BUCKETS.values().stream().skip(2).toList()) {
            assertThatThrownBy(() -> sql.update("INSERT INTO usage_ledger (org_id, project_id, provider, model,"
                    + " input_tokens, output_tokens, metered, occurred_at, " + column + ") VALUES (?, ?, 'openai', 'm',"
                    + " 0, 0, true, now(), -1)", List.of(UUID.fromString(o), UUID.fromString(p))))
                    .as(column).rootCause().hasMessageContaining("usage_ledger_buckets_non_negative");
        }
    }
}
