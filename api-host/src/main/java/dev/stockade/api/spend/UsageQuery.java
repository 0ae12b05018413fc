package dev.stockade.api.spend;

import static dev.stockade.api.kernel.web.QueryParameters.instant;
import static dev.stockade.api.kernel.web.QueryParameters.invalid;

import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.model.Provider;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The range and filters of a usage-costs read, parsed and bounded: {@code from} (inclusive, default the start of the
 * current calendar month in UTC), {@code to} (exclusive, default now), at most {@value #MAX_DAYS} days apart;
 * optional project, sandbox, provider and model.
 */
public record UsageQuery(Instant from, Instant to, @Nullable UUID projectId, @Nullable UUID sandboxId,
                         @Nullable Provider provider, @Nullable String model) {
    public static final int MAX_DAYS = 366;
    /** The parameters every usage-costs read takes (the routes add their own). */
    public static final Set<String> PARAMS = Set.of("from", "to", "projectId", "sandboxId", "provider", "model");

    public static UsageQuery parse(Map<String, String> q, Instant now) {
        Instant to = q.containsKey("to") ? instant("to", q.get("to")) : now;
        Instant from = q.containsKey("from") ? instant("from", q.get("from")) : SpendPeriod.MONTH.start(now);
        if (!from.isBefore(to)) {
            throw invalid("from", "`from` must be before `to` (" + to + ")");
        }
        if (Duration.between(from, to).compareTo(Duration.ofDays(MAX_DAYS)) > 0) {
            throw invalid("from", "`from` and `to` must be at most " + MAX_DAYS + " days apart");
        }
        String provider = q.get("provider");
        Provider p = provider == null ? null : Provider.fromWire(provider);
        if (provider != null && p == null) {
            throw invalid("provider", "`provider` must be one of bedrock, azure, bedrock-mantle, openai, openrouter, "
                    + "litellm");
        }
        String model = q.get("model");
        if (model != null && (model.isEmpty() || model.length() > 200)) {
            throw invalid("model", "`model` must be 1 to 200 characters");
        }
        return new UsageQuery(from, to, id(q, "projectId"), id(q, "sandboxId"), p, model);
    }

    /** {@code org_id = ?} and the range and filters, with their arguments appended to {@code args} in order. */
    String where(UUID orgId, List<Object> args) {
        StringBuilder sql = new StringBuilder("org_id = ? AND occurred_at >= ? AND occurred_at < ?");
        args.addAll(List.of(orgId, from, to));
        Object[][] filters = {{"project_id", projectId}, {"sandbox_id", sandboxId},
                {"provider", provider == null ? null : provider.wire()}, {"model", model}};
        for (Object[] f : filters) {
            if (f[1] != null) {
                sql.append(" AND ").append(f[0]).append(" = ?");
                args.add(f[1]);
            }
        }
        return sql.toString();
    }

    @Nullable
    private static UUID id(Map<String, String> q, String name) {
        return q.containsKey(name) ? Authorizer.uuid(name, q.get(name)) : null;
    }
}
