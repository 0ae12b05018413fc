package dev.stockade.policy.impact;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.model.Verdict;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * One audit entry, in the shape the platform's audit trail answers and {@code stockade audit --format json} exports
 * ({@code at, kind, action, outcome, actor {type, id}, target, details}), read into a {@link RecordedDecision}. An
 * entry missing what its decision needs becomes {@link RecordedDecision.Unreplayable} with the reason, never a guess.
 */
public final class TrailEntries {
    private TrailEntries() {
    }

    /** The recorded decision of one entry. Never throws. */
    public static RecordedDecision read(JsonNode entry) {
        Instant at = time(entry.path("at"));
        String who = actor(entry.path("actor"));
        EntryKind kind = EntryKind.fromSlug(entry.path("kind").asText(""));
        if (kind == null) {
            return new RecordedDecision.Unreplayable(at, who, NotReplayable.UNKNOWN_KIND);
        }
        if (at == null) {
            return new RecordedDecision.Unreplayable(null, who, NotReplayable.MISSING_FIELDS);
        }
        return kind == EntryKind.EGRESS ? egress(entry, at, entry.path("actor").path("id").asText(null))
                : toolCall(entry, at, who);
    }

    private static RecordedDecision egress(JsonNode entry, Instant at, String sandbox) {
        JsonNode d = entry.path("details");
        Verdict verdict = Verdict.fromWire(entry.path("action").asText(""));
        String target = text(entry, "target");
        int colon = target == null ? -1 : target.lastIndexOf(':');
        String listenerName = text(d, "listener");
        EgressListener listener = listenerName == null ? null : EgressListener.fromWire(listenerName);
        if (listenerName != null && listener == null) {
            return new RecordedDecision.Unreplayable(at, sandbox, NotReplayable.UNKNOWN_LISTENER);
        }
        int port = colon < 0 ? -1 : port(target.substring(colon + 1));
        String method = text(d, "method");
        String path = text(d, "path");
        boolean incomplete = verdict == null || listener == null || port < 1 || colon < 1
                || listener.requestLevel() && (method == null || path == null);
        if (incomplete) {
            return new RecordedDecision.Unreplayable(at, sandbox, NotReplayable.MISSING_FIELDS);
        }
        String host = target.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new RecordedDecision.Egress(at, sandbox, listener, host, port,
                listener.requestLevel() ? method : null, listener.requestLevel() ? path : null, text(d, "caller"),
                verdict, text(d, "reason"), listener.requestLevel() ? graphql(d.get("graphql")) : null);
    }

    /**
     * The GraphQL operations the fence judged ({@code details.graphql}); {@code null} on an older entry and on one
     * whose summary no proxy could have written: such an entry is replayed as one without, never from a guess.
     */
    static GraphqlSummary graphql(JsonNode summary) {
        if (summary == null || !summary.isObject()) {
            return null;
        }
        try {
            return GraphqlSummary.fromJson(summary.toString());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static RecordedDecision toolCall(JsonNode entry, Instant at, String who) {
        JsonNode d = entry.path("details");
        String outcome = entry.path("outcome").asText("");
        String connector = text(d, "connectorId");
        String upstream = text(d, "upstreamTool");
        if (connector == null || upstream == null) {
            // a platform tool names no connector; a refused name was never matched to one
            return new RecordedDecision.Unreplayable(at, who, "denied".equals(outcome)
                    ? NotReplayable.TOOL_NOT_IDENTIFIED : NotReplayable.PLATFORM_TOOL);
        }
        // success and error both reached the connector (an error is the upstream's); cancelled is the halt's
        if (!"success".equals(outcome) && !"error".equals(outcome)) {
            return new RecordedDecision.Unreplayable(at, who, NotReplayable.NOT_A_POLICY_DECISION);
        }
        return new RecordedDecision.ToolCall(at, who, text(entry, "target"), connector, upstream, Verdict.ALLOW);
    }

    private static String actor(JsonNode actor) {
        String type = actor.path("type").asText(null);
        String id = actor.path("id").asText(null);
        return type == null || id == null ? null : type + ":" + id;
    }

    private static Instant time(JsonNode at) {
        try {
            return at.isTextual() ? Instant.parse(at.asText()) : null;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static int port(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isValueNode() || v.isNull() ? null : v.asText();
    }
}
