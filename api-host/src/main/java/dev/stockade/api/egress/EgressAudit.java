package dev.stockade.api.egress;

import dev.stockade.api.kernel.audit.Actor;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.AuditSink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-process proxy's decisions into the platform's audit trail (kind {@code egress}, action {@code allow} or
 * {@code deny}, the sandbox as actor, the original caller binary in the details), through the audit appender's group
 * commit. A decision of a connection no sandbox claimed is dropped with a log line: it has no organization. A decision
 * about a model provider's API host carries {@code unmeteredProvider} (the sandbox bypassed the metered {@code /llm}
 * proxy), and an allowed one also becomes an unmetered ledger row ({@link UnmeteredCalls}). A decision a GraphQL fence
 * judged carries the operations it judged ({@code graphql}), never their arguments.
 */
record EgressAudit(AuditAppender appender, Function<String, Owner> owners,
        UnmeteredCalls unmetered) implements AuditSink {
    private static final Logger LOG = LoggerFactory.getLogger(EgressAudit.class);

    /** Where a sandbox belongs. */
    record Owner(UUID orgId, UUID projectId) {
    }

    @Override
    public void record(AuditEvent e) {
        Owner owner = e.sandbox() == null ? null : owners.apply(e.sandbox());
        if (owner == null) {
            LOG.debug("egress decision without a known sandbox: {} {}", e.verdict(), e.reason());
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("listener", e.listener());
        put(details, "caller", e.caller());
        put(details, "method", e.method());
        put(details, "path", e.path());
        put(details, "transport", e.transport());
        put(details, "policy", e.policy());
        details.put("entry", e.entry());
        details.put("rule", e.rule());
        put(details, "reason", e.reason() == null ? null : e.reason().code());
        details.put("status", e.status());
        details.put("bytesIn", e.bytesIn());
        details.put("bytesOut", e.bytesOut());
        details.put("durationMs", e.durationMs());
        if (e.graphql() != null) {
            details.put("graphql", graphql(e.graphql()));
        }
        e.unmeteredProvider().ifPresent(v -> details.put("unmeteredProvider", v.wire()));
        boolean allowed = "allow".equals(e.verdict());
        appender.append(dev.stockade.api.kernel.audit.AuditEvent.of(AuditKind.EGRESS, allowed ? "allow" : "deny")
                .org(owner.orgId())
                .project(owner.projectId()).outcome(allowed ? AuditOutcome.SUCCESS : AuditOutcome.DENIED)
                .by(Actor.of("sandbox", e.sandbox())).target(e.host() + ":" + e.port()).details(details)
                .build()).exceptionally(err -> {
                    LOG.warn("an egress audit entry was not stored: {}", err.getMessage());
                    return null;
                });
        unmetered.record(e, owner);
    }

    /**
     * What the GraphQL fence judged, in the audit line's own JSON form ({@code {operations: [{element, type, name,
     * fields}], truncated}}): details are stored as JSON, so replay and suggest read it back with no migration.
     */
    private static Map<String, Object> graphql(GraphqlSummary summary) {
        List<Map<String, Object>> operations = new ArrayList<>(summary.operations().size());
        for (GraphqlSummary.Operation o : summary.operations()) {
            Map<String, Object> op = new LinkedHashMap<>();
            op.put("element", o.element());
            op.put("type", o.type().wire());
            op.put("name", o.name());
            op.put("fields", o.fields());
            operations.add(op);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("operations", operations);
        out.put("truncated", summary.truncated());
        return out;
    }

    private static void put(Map<String, Object> m, String k, Object v) {
        if (v != null) {
            m.put(k, v);
        }
    }
}
