package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code stockade audit --org ID}: the organization's audit trail, newest first, one page or all of it. */
@Command(name = "audit", mixinStandardHelpOptions = true, description = "The organization's audit trail, newest"
        + " first (GET /v1/orgs/{orgId}/audit-trail).")
public final class AuditCommand implements Callable<Integer> {
    static final List<Output.Column> ENTRY = List.of(Output.Column.time("TIME", "at"), Output.Column.of("KIND", "kind"),
            Output.Column.of("ACTION", "action"), Output.Column.of("OUTCOME", "outcome"),
            new Output.Column("ACTOR", n -> n.path("actor").path("type").asText("-") + ":"
                    + n.path("actor").path("id").asText("-")),
            Output.Column.of("PROJECT", "projectId"), Output.Column.of("TARGET", "target"));

    @Option(names = "--org", paramLabel = "ORG_ID", required = true)
    String org;
    @Option(names = "--kind",
            description = "Only this kind (organization, project, project-member, api-token, halt, ...).")
    String kind;
    @Option(names = "--action", description = "Only this action (create, update, delete, halt, lift, ...).")
    String action;
    @Option(names = "--since", paramLabel = "WHEN", description = "From this time: an ISO 8601 instant, a date or a"
            + " duration back from now such as 1h, 7d.")
    String since;
    @Option(names = "--until", paramLabel = "WHEN", description = "Before this time (same forms as --since).")
    String until;
    @Option(names = "--project", paramLabel = "PROJECT_ID", description = "Only entries of this project.")
    String project;
    @Option(names = "--actor", paramLabel = "ACTOR_ID", description = "Only entries by this actor id.")
    String actor;
    @Option(names = "--outcome", description = "Only this outcome (success, denied, ...).")
    String outcome;
    @Option(names = "--exclude-reads", description = "Leave out reads.")
    boolean excludeReads;
    @Option(names = "--limit", paramLabel = "N",
            description = "Entries per page, 1 to 500 (the platform's default: 50).")
    Integer limit;
    @Option(names = "--all", description = "Follow the cursor to the oldest entry and print every page.")
    boolean all;
    @Option(names = "--cursor", paramLabel = "TIME", description = "Continue after this entry time (the previous"
            + " page's nextCursor).")
    String cursor;
    @Option(names = "--cursor-id", paramLabel = "ID", description = "With --cursor: the previous page's nextCursorId.")
    Long cursorId;

    @Mixin
    ApiOptions api;

    @Override
    public Integer call() {
        return api.call((client, out) -> {
            Map<String, String> query = filters();
            JsonNode page = client.get(path(query, cursor, cursorId));
            if (!all) {
                out.list(page, ENTRY);
                if (page.hasNonNull("nextCursor")) {
                    out.note("more entries: add --all, or --cursor " + page.path("nextCursor").asText()
                            + " --cursor-id " + page.path("nextCursorId").asText());
                }
                return;
            }
            ArrayNode items = ApiClient.JSON.createArrayNode();
            while (true) {
                items.addAll((ArrayNode) page.withArray("items"));
                String next = page.path("nextCursor").asText(null);
                if (next == null) {
                    break;
                }
                long nextId = page.path("nextCursorId").asLong();
                JsonNode following = client.get(path(query, next, nextId));
                if (Objects.equals(following.path("nextCursor").asText(null), next)
                        && following.path("nextCursorId").asLong() == nextId) {
                    throw Failure.unexpected("the audit trail's cursor did not advance past " + next);
                }
                page = following;
            }
            ObjectNode whole = ApiClient.JSON.createObjectNode();
            whole.set("items", items);
            whole.putNull("nextCursor");
            whole.putNull("nextCursorId");
            out.list(whole, ENTRY);
        });
    }

    private Map<String, String> filters() {
        Map<String, String> q = new LinkedHashMap<>();
        Instant now = Instant.now();
        put(q, "kind", kind);
        put(q, "action", action);
        put(q, "from", since == null ? null : Times.parse("--since", since, false, now).toString());
        put(q, "to", until == null ? null : Times.parse("--until", until, false, now).toString());
        put(q, "projectId", project);
        put(q, "actorId", actor);
        put(q, "outcome", outcome);
        put(q, "excludeReads", excludeReads ? "true" : null);
        put(q, "limit", limit == null ? null : limit.toString());
        return q;
    }

    private String path(Map<String, String> filters, String after, Long afterId) {
        Map<String, String> q = new LinkedHashMap<>(filters);
        put(q, "cursor", after);
        put(q, "cursorId", afterId == null ? null : afterId.toString());
        return "/v1/orgs/" + seg(org) + "/audit-trail" + ApiClient.query(q);
    }

    private static void put(Map<String, String> q, String name, String value) {
        if (value != null) {
            q.put(name, value);
        }
    }
}
