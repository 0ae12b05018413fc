package dev.stockade.api.spend;

import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.sandbox.SandboxService;
import dev.stockade.policy.compiler.SpendPeriod;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a running agent may know of spend: its own sandbox's spend and usage this month and the limits that apply to
 * it. The sandbox is the one the caller's token was minted for; no argument can name another.
 */
@Singleton
record SandboxSpend(SandboxService sandboxes, SpendingLimits limits, UsageCosts usage, Clock clock) {
    /** The caller's own sandbox's spend now; only a sandbox token has one. */
    public SpendViews.OwnSpend own(Identity caller) {
        if (!(caller instanceof Identity.SandboxToken s)) {
            throw new ApiProblem(ProblemCode.FORBIDDEN, "only a sandbox has its own spend");
        }
        Sandbox sb = sandboxes.byToken(s.tokenId()).orElseThrow(() ->
                ApiProblem.notFound("sandbox of this token (it was issued to no sandbox)"));
        return of(sb, clock.instant());
    }

    /** The sandbox's spend and usage in the calendar month (UTC) holding {@code now}. */
    public SpendViews.OwnSpend of(Sandbox sb, Instant now) {
        Instant start = SpendPeriod.MONTH.start(now);
        UsageQuery month = UsageQuery.parse(Map.of("from", start.toString(), "to",
                SpendPeriod.MONTH.end(now).toString(), "sandboxId", sb.id().toString()), now);
        UsageCosts.Totals totals = usage.report(sb.orgId(), month, List.of()).total();
        SpendAdmission.Admission admission = SpendAdmission.judge(limits.applicable(sb.orgId(), sb.projectId(),
                sb.id(), now));
        long spent = limits.counted("sandbox", sb.id(), SpendPeriod.MONTH, now);
        return new SpendViews.OwnSpend(sb.id(), sb.projectId(), start, month.to(), Money.usd(spent), totals,
                admission.allowed(), admission.applicable().stream().map(SpendViews.OwnLimit::of).toList());
    }
}
