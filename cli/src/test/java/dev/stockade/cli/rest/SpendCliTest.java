package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code stockade spend}: spending limits set, listed and removed, and usage costs read, on the running platform. */
class SpendCliTest extends SignedInCliTest {

    @Test
    void limitsAreSetListedWithTheirSpendAndRemoved() {
        String org = ok("orgs", "create", "spend-cli").path("id").asText();
        String project = ok("projects", "create", "--org", org, "agents").path("id").asText();
        JsonNode set = ok("spend", "set", "--org", org, "100");
        assertThat(set.path("scope").asText()).isEqualTo("org");
        assertThat(set.path("amountUsd").asText()).isEqualTo("100.000000");
        JsonNode daily = ok("spend", "set", "--org", org, "--project", project, "2.5", "--period", "day");
        assertThat(daily.path("period").asText()).isEqualTo("day");

        JsonNode limits = ok("spend", "limits", "--org", org);
        assertThat(limits.path("items")).hasSize(2);
        assertThat(limits.path("items").get(1).path("projectId").asText()).isEqualTo(project);
        assertThat(limits.path("items").get(1).path("remainingUsd").asText()).isEqualTo("2.500000");
        Cli.Run table = cli.run("spend", "limits", "--org", org);
        assertThat(table.status()).as(table.toString()).isZero();
        assertThat(table.out()).contains("SCOPE", "REMAINING_USD", "100.000000", "2.500000");

        ok("spend", "delete", "--org", org, "--project", project);
        assertThat(ok("spend", "limits", "--org", org).path("items")).hasSize(1);
        Cli.Run gone = cli.run("spend", "delete", "--org", org, "--project", project);
        assertThat(gone.status()).isEqualTo(Exit.REFUSED);
        assertThat(gone.err()).contains("(not_found, HTTP 404)");
    }

    @Test
    void badInputIsRefusedByThePlatformOrTheCli() {
        String org = ok("orgs", "create", "spend-cli-bad").path("id").asText();
        Cli.Run amount = cli.run("spend", "set", "--org", org, "ten");
        assertThat(amount.status()).isEqualTo(Exit.REFUSED);
        assertThat(amount.err()).contains("(validation_failed, HTTP 400)", "/amountUsd");
        Cli.Run sandbox = cli.run("spend", "set", "--org", org, "--sandbox", UUID.randomUUID().toString(), "1");
        assertThat(sandbox.status()).isEqualTo(Exit.USAGE);
        assertThat(sandbox.err()).contains("--sandbox needs --project");
    }

    @Test
    void usageIsGroupedAndBucketed() {
        String org = ok("orgs", "create", "spend-cli-usage").path("id").asText();
        JsonNode report = ok("spend", "usage", "--org", org, "--group-by", "project,model", "--since", "2d");
        assertThat(report.path("total").path("costUsd").asText()).isEqualTo("0.000000");
        assertThat(report.path("groupBy").toString()).isEqualTo("[\"project\",\"model\"]");
        Cli.Run table = cli.run("spend", "usage", "--org", org);
        assertThat(table.status()).as(table.toString()).isZero();
        assertThat(table.out()).contains("(none)", "total 0.000000 USD, 0 calls",
                "  input tokens 0: cache read 0, cache write 0 (0 for one hour), audio 0, cached audio 0, images 0,"
                        + " cached images 0", "  output tokens 0: reasoning 0, audio 0", "  web searches 0");
        JsonNode series = ok("spend", "timeseries", "--org", org, "--interval", "hour", "--since", "3h");
        assertThat(series.path("buckets").size()).isBetween(3, 4);
        assertThat(series.path("buckets").get(0).path("usage").path("cacheReadTokens").isNumber()).isTrue();
        Cli.Run hours = cli.run("spend", "timeseries", "--org", org, "--interval", "hour", "--since", "3h");
        assertThat(hours.status()).as(hours.toString()).isZero();
        assertThat(hours.out().lines().findFirst().orElseThrow().split(" +")).containsExactly("START", "COST_USD",
                "CALLS", "INPUT", "CACHE_READ", "CACHE_WRITE", "OUTPUT");
        Cli.Run tooMany = cli.run("spend", "timeseries", "--org", org, "--interval", "hour", "--since", "60d");
        assertThat(tooMany.status()).isEqualTo(Exit.REFUSED);
        assertThat(tooMany.err()).contains("(invalid_parameter, HTTP 400)");
    }
}
