package dev.stockade.api.spend;

import static dev.stockade.api.kernel.tools.ToolArgs.text;
import static dev.stockade.api.kernel.tools.ToolArgs.uuid;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import dev.stockade.api.kernel.web.ApiProblem;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Spend as MCP tools, calling what the REST routes call: usage costs are day to day (like the audit trail);
 * spending limits are a person's surface only ({@link ToolFamily#SPENDING_LIMITS}); a sandbox reads its own spend.
 */
@Singleton
record SpendTools(UsageCosts usage, SpendingLimits limits, SandboxSpend own, SpendReservations reservations,
        Clock clock) implements PlatformTool.Provider {
    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("get_usage_costs", "Read an organization's model usage and cost over a range,"
                        + " grouped by project, sandbox, provider and model (amounts in USD).", ToolFamily.DAY_TO_DAY,
                        Action.USAGE_READ, filters().string("groupBy", "Comma list of project, sandbox, provider,"
                                + " model (default: all; empty: totals only)").required("orgId"),
                        (caller, grant, args) -> usage.report(grant.orgId(), query(args), UsageCosts.dimensions(
                                args.hasNonNull("groupBy") ? text(args, "groupBy") : null))),
                new PlatformTool("get_usage_timeseries", "Read an organization's model usage and cost in hour or day"
                        + " buckets (UTC).", ToolFamily.DAY_TO_DAY, Action.USAGE_READ, filters().oneOf("interval",
                                "Bucket size (default: day)", "hour", "day").required("orgId"),
                        (caller, grant, args) -> usage.timeseries(grant.orgId(), query(args),
                                args.hasNonNull("interval") ? text(args, "interval") : "day")),
                new PlatformTool("list_spending_limits", "List an organization's spending limits with the spend"
                        + " counted in each one's current period.", ToolFamily.SPENDING_LIMITS,
                        Action.SPENDING_LIMITS_READ,
                        Schema.object().uuid("orgId", "The organization").required("orgId"),
                        (caller, grant, args) -> statuses(grant.orgId())),
                new PlatformTool("set_spending_limit", "Set (or replace) the spending limit of an organization or,"
                        + " with projectId, of one of its projects.", ToolFamily.SPENDING_LIMITS,
                        Action.SPENDING_LIMITS_WRITE, amount(Schema.object().uuid("orgId", "The organization")
                                .uuid("projectId", "The project (absent: the organization's own limit)"))
                                .required("orgId", "amountUsd"),
                        (caller, grant, args) -> SpendViews.LimitView.of(limits.set(caller, grant.orgId(),
                                orgOrProject(args), body(args).amountMicros(), body(args).spendPeriod()))),
                new PlatformTool("delete_spending_limit", "Remove the spending limit of an organization or, with"
                        + " projectId, of one of its projects.", ToolFamily.SPENDING_LIMITS,
                        Action.SPENDING_LIMITS_WRITE, Schema.object().uuid("orgId", "The organization")
                                .uuid("projectId", "The project (absent: the organization's own limit)")
                                .required("orgId"),
                        (caller, grant, args) -> {
                            limits.delete(caller, grant.orgId(), orgOrProject(args));
                            return new SpendViews.Removed(true);
                        }),
                new PlatformTool("set_sandbox_spending_limit", "Cap one sandbox's spend (a project admin's right).",
                        ToolFamily.SPENDING_LIMITS, Action.SANDBOX_SPENDING_LIMIT_WRITE, amount(sandbox())
                                .required("projectId", "sandboxId", "amountUsd"),
                        (caller, grant, args) -> SpendViews.LimitView.of(limits.set(caller, grant.orgId(),
                                sandbox(grant, args), body(args).amountMicros(), body(args).spendPeriod()))),
                new PlatformTool("delete_sandbox_spending_limit", "Remove one sandbox's spending cap.",
                        ToolFamily.SPENDING_LIMITS, Action.SANDBOX_SPENDING_LIMIT_WRITE,
                        sandbox().required("projectId", "sandboxId"), (caller, grant, args) -> {
                            limits.delete(caller, grant.orgId(), sandbox(grant, args));
                            return new SpendViews.Removed(true);
                        }),
                new PlatformTool("get_own_spend", "Read this sandbox's own model spend and usage this month (UTC)"
                        + " and what is left under the limits that apply to it.", ToolFamily.SELF,
                        Action.SPEND_SELF_READ, Schema.object().required(), (caller, grant, args) -> {
                            if (args.size() > 0) {
                                throw ApiProblem.invalid("/" + args.fieldNames().next(), "unknown",
                                        "get_own_spend takes no arguments: a sandbox reads only its own spend");
                            }
                            return own.own(caller);
                        }));
    }

    private static Schema filters() {
        return Schema.object().uuid("orgId", "The organization")
                .string("from", "ISO-8601 instant, inclusive (default: start of this month, UTC)")
                .string("to", "ISO-8601 instant, exclusive (default: now)").uuid("projectId", "Only this project")
                .uuid("sandboxId", "Only this sandbox").oneOf("provider", "Only this provider", "bedrock", "azure",
                        "bedrock-mantle", "openai", "openrouter", "litellm").string("model", "Only this model");
    }

    private static Schema sandbox() {
        return Schema.object().uuid("projectId", "The project").uuid("sandboxId", "The sandbox");
    }

    private static Schema amount(Schema s) {
        return s.string("amountUsd", "USD as a decimal string, at most six decimals (\"25\", \"0.50\"); 0 stops all"
                + " metered calls").oneOf("period", "Calendar period in UTC (default: month)", "month", "day");
    }

    private UsageQuery query(JsonNode args) {
        Map<String, String> q = new HashMap<>();
        for (String name : UsageQuery.PARAMS) {
            if (args.hasNonNull(name)) {
                q.put(name, text(args, name));
            }
        }
        return UsageQuery.parse(q, clock.instant());
    }

    private static SetLimit body(JsonNode args) {
        return new SetLimit(text(args, "amountUsd"), args.hasNonNull("period") ? text(args, "period") : null);
    }

    private static LimitTarget orgOrProject(JsonNode args) {
        return args.hasNonNull("projectId") ? LimitTarget.project(uuid(args, "projectId")) : LimitTarget.org();
    }

    private static LimitTarget sandbox(Grant grant, JsonNode args) {
        return LimitTarget.sandbox(grant.projectId(), uuid(args, "sandboxId"));
    }

    private SpendViews.LimitStatuses statuses(UUID orgId) {
        Instant now = clock.instant();
        return new SpendViews.LimitStatuses(SpendViews.statuses(limits.all(orgId, now), reservations.held(orgId, now)));
    }
}
