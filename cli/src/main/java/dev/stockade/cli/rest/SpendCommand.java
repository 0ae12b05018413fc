package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stockade spend usage|timeseries|limits|set|delete --org ID}: model usage and its cost, and the spending
 * limits of an organization, its projects and their sandboxes. Amounts are USD decimal strings.
 */
@Command(name = "spend", mixinStandardHelpOptions = true, description = "Usage costs and spending limits"
        + " (/v1/orgs/{orgId}/usage-costs, /v1/orgs/{orgId}/spending-limits).")
public final class SpendCommand extends Group {
    static final List<Output.Column> GROUP = List.of(Output.Column.of("PROJECT", "projectId"),
            Output.Column.of("SANDBOX", "sandboxId"), Output.Column.of("PROVIDER", "provider"),
            Output.Column.of("MODEL", "model"), usage("COST_USD", "costUsd"), usage("CALLS", "calls"),
            usage("INPUT", "inputTokens"), usage("CACHE_READ", "cacheReadTokens"),
            usage("CACHE_WRITE", "cacheWriteTokens"), usage("OUTPUT", "outputTokens"));
    static final List<Output.Column> BUCKET = List.of(Output.Column.time("START", "start"),
            usage("COST_USD", "costUsd"), usage("CALLS", "calls"), usage("INPUT", "inputTokens"),
            usage("CACHE_READ", "cacheReadTokens"), usage("CACHE_WRITE", "cacheWriteTokens"),
            usage("OUTPUT", "outputTokens"));
    static final List<Output.Column> LIMIT = List.of(Output.Column.of("SCOPE", "scope"),
            Output.Column.of("PROJECT", "projectId"), Output.Column.of("SANDBOX", "sandboxId"),
            Output.Column.of("PERIOD", "period"), Output.Column.of("LIMIT_USD", "limitUsd"),
            Output.Column.of("SPENT_USD", "spentUsd"), Output.Column.of("REMAINING_USD", "remainingUsd"),
            Output.Column.of("EXCEEDED", "exceeded"));
    static final List<Output.Column> SET = List.of(Output.Column.of("SCOPE", "scope"),
            Output.Column.of("PROJECT", "projectId"), Output.Column.of("SANDBOX", "sandboxId"),
            Output.Column.of("AMOUNT_USD", "amountUsd"), Output.Column.of("PERIOD", "period"),
            Output.Column.time("UPDATED", "updatedAt"), Output.Column.of("BY", "updatedBy"));

    /** The range and filters of a usage read. */
    static final class Range {
        @Option(names = "--since", paramLabel = "WHEN", description = "From this time: an ISO 8601 instant, a date or"
                + " a duration back from now such as 7d (the platform's default: the start of this month, UTC).")
        String since;
        @Option(names = "--until", paramLabel = "WHEN", description = "Before this time (default: now).")
        String until;
        @Option(names = "--project", paramLabel = "PROJECT_ID", description = "Only this project.")
        String project;
        @Option(names = "--sandbox", paramLabel = "SANDBOX_ID", description = "Only this sandbox.")
        String sandbox;
        @Option(names = "--provider", description = "Only this provider (bedrock, azure, openai, ...).")
        String provider;
        @Option(names = "--model", description = "Only this model.")
        String model;

        Map<String, String> query() {
            Map<String, String> q = new LinkedHashMap<>();
            Instant now = Instant.now();
            put(q, "from", since == null ? null : Times.parse("--since", since, false, now).toString());
            put(q, "to", until == null ? null : Times.parse("--until", until, false, now).toString());
            put(q, "projectId", project);
            put(q, "sandboxId", sandbox);
            put(q, "provider", provider);
            put(q, "model", model);
            return q;
        }
    }

    /** What a limit caps: the organization, or a project, or (with both) a sandbox. */
    static final class Target {
        @Option(names = "--project", paramLabel = "PROJECT_ID", description = "A project's limit (org admins).")
        String project;
        @Option(names = "--sandbox", paramLabel = "SANDBOX_ID", description = "With --project: a sandbox's cap"
                + " (project admins).")
        String sandbox;

        String path(String org) {
            if (sandbox != null && project == null) {
                throw Failure.usage("--sandbox needs --project");
            }
            return limits(org) + (project == null ? "/org" : "/projects/" + seg(project)
                    + (sandbox == null ? "" : "/sandboxes/" + seg(sandbox)));
        }
    }

    @Command(name = "usage", mixinStandardHelpOptions = true, description = "Usage and cost grouped by project,"
            + " sandbox, provider and model, most costly first, with the total.")
    int usage(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
              @Option(names = "--group-by", paramLabel = "DIMENSIONS", description = "Comma list of project, sandbox,"
                      + " provider, model (default: all).") String groupBy,
              @ArgGroup(exclusive = false) Range range, @Mixin ApiOptions api) {
        return read(api, "/v1/orgs/" + seg(org) + "/usage-costs", range, "groupBy", groupBy, (out, report) -> {
            out.table(items(report.path("groups")), GROUP, true);
            JsonNode total = report.path("total");
            out.done("total " + total.path("costUsd").asText() + " USD, " + total.path("calls").asText() + " calls ("
                    + total.path("unpricedCalls").asText() + " without a price, " + total.path("unmeteredCalls")
                    .asText() + " unmetered) from " + report.path("from").asText() + " to "
                    + report.path("to").asText());
            breakdown(total).forEach(out::done);
            if (report.path("truncated").asBoolean()) {
                out.note("more groups than shown: narrow the range or the filters");
            }
        });
    }

    @Command(name = "timeseries", mixinStandardHelpOptions = true, description = "Usage and cost in hour or day"
            + " buckets (UTC).")
    int timeseries(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
                   @Option(names = "--interval", description = "hour or day (default: day).") String interval,
                   @ArgGroup(exclusive = false) Range range, @Mixin ApiOptions api) {
        return read(api, "/v1/orgs/" + seg(org) + "/usage-costs/timeseries", range, "interval", interval,
                (out, series) -> out.table(items(series.path("buckets")), BUCKET, true));
    }

    /** GETs a usage read with the range, filters and one more parameter; JSON as sent, or {@code table} for people. */
    private static int read(ApiOptions api, String path, Range range, String name, String value,
                            BiConsumer<Output, JsonNode> table) {
        return api.call((client, out) -> {
            Map<String, String> q = range == null ? new LinkedHashMap<>() : range.query();
            put(q, name, value);
            JsonNode answer = client.get(path + ApiClient.query(q));
            if (out.format() == Output.Format.table) {
                table.accept(out, answer);
            } else {
                out.json(answer);
            }
        });
    }

    @Command(name = "limits", mixinStandardHelpOptions = true, description = "Every spending limit with the spend"
            + " counted in its current period.")
    int limits(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get(limits(org) + "/status"), LIMIT));
    }

    @Command(name = "set", mixinStandardHelpOptions = true, description = "Set (or replace) the limit of the"
            + " organization, a project (--project) or a sandbox (--project and --sandbox); audited.")
    int set(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
            @Parameters(paramLabel = "AMOUNT_USD", description = "USD, at most six decimals, such as 25 or 0.50;"
                    + " 0 stops every metered call.") String amount,
            @Option(names = "--period", description = "month (default) or day: the calendar period in UTC.")
            String period, @ArgGroup(exclusive = false) Target target, @Mixin ApiOptions api) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("amountUsd", amount);
        put(body, "period", period);
        return api.call((client, out) -> out.record(client.put(path(org, target), body), SET));
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Remove the limit of the organization,"
            + " a project or a sandbox; audited.")
    int delete(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
               @ArgGroup(exclusive = false) Target target, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete(path(org, target));
            out.done("spending limit removed");
        });
    }

    private static String path(String org, Target target) {
        return (target == null ? new Target() : target).path(org);
    }

    private static String limits(String org) {
        return "/v1/orgs/" + seg(org) + "/spending-limits";
    }

    /**
     * Every bucket of a usage the calls were priced by, for people: each part under the side it is part of, so that
     * the cost can be traced to what was used (the tables show only the cache columns).
     */
    static List<String> breakdown(JsonNode usage) {
        return List.of("  input tokens " + count(usage, "inputTokens") + ": cache read " + count(usage,
                        "cacheReadTokens") + ", cache write " + count(usage, "cacheWriteTokens") + " ("
                        + count(usage, "cacheWrite1hTokens") + " for one hour), audio " + count(usage,
                        "inputAudioTokens") + ", cached audio " + count(usage, "cacheReadAudioTokens") + ", images "
                        + count(usage, "inputImageTokens") + ", cached images " + count(usage, "cacheReadImageTokens"),
                "  output tokens " + count(usage, "outputTokens") + ": reasoning " + count(usage, "reasoningTokens")
                        + ", audio " + count(usage, "outputAudioTokens"),
                "  web searches " + count(usage, "webSearches"));
    }

    /** A count as the platform sent it; {@code -} when an older platform did not send it. */
    private static String count(JsonNode usage, String field) {
        return Output.text(usage.path(field));
    }

    private static Output.Column usage(String header, String field) {
        return new Output.Column(header, n -> Output.text(n.path("usage").path(field)));
    }

    private static List<JsonNode> items(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    private static void put(Map<String, String> q, String name, String value) {
        if (value != null) {
            q.put(name, value);
        }
    }
}
