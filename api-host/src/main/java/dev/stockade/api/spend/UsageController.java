package dev.stockade.api.spend;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.web.QueryParameters;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** {@code /v1/orgs/{orgId}/usage-costs} (grouped totals) and {@code .../timeseries} (hour or day buckets, UTC). */
@Controller("/v1/orgs/{orgId}/usage-costs")
@Tag(name = "spend")
record UsageController(UsageCosts usage, Clock clock) {
    private static final Set<String> REPORT = with("groupBy");
    private static final Set<String> SERIES = with("interval");

    @Get
    @Access(Action.USAGE_READ)
    UsageCosts.Report report(HttpRequest<?> request, String orgId,
                             @Parameter(description = "ISO 8601 instant, inclusive (default: start of this month, UTC)")
                             @QueryValue @Nullable String from,
                             @Parameter(description = "ISO 8601 instant, exclusive (default: now)")
                             @QueryValue @Nullable String to,
                             @Parameter(description = "comma list of project, sandbox, provider, model (default: all;"
                                     + " empty: totals only)") @QueryValue @Nullable String groupBy) {
        Map<String, String> q = QueryParameters.single(request, REPORT);
        return usage.report(Caller.grant(request).orgId(), UsageQuery.parse(q, clock.instant()),
                UsageCosts.dimensions(q.get("groupBy")));
    }

    @Get("/timeseries")
    @Access(Action.USAGE_READ)
    UsageCosts.Series timeseries(HttpRequest<?> request, String orgId,
                                 @Parameter(description = "hour or day (default: day)") @QueryValue @Nullable
                                 String interval) {
        Map<String, String> q = QueryParameters.single(request, SERIES);
        return usage.timeseries(Caller.grant(request).orgId(), UsageQuery.parse(q, clock.instant()),
                q.getOrDefault("interval", "day"));
    }

    private static Set<String> with(String extra) {
        Set<String> out = new HashSet<>(UsageQuery.PARAMS);
        out.add(extra);
        return Set.copyOf(out);
    }
}
