package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.cli.Stockade;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A window of a running platform's audit trail, read for replay ({@code stockade policy impact --org}): the egress
 * and tool-call entries of an organization (or one project) between two times, page by page, each entry handed on as
 * it arrives so that a large window is never held whole. The window is bounded before anything is read.
 */
public final class AuditWindow {
    @Option(names = "--url", paramLabel = "URL",
            description = "The platform's URL (default: STOCKADE_URL, else the stored login).")
    String url;

    @Option(names = "--token", paramLabel = "TOKEN", description = "API token (default: STOCKADE_TOKEN, else the stored"
            + " login).")
    String token;

    @Option(names = "--org", paramLabel = "ORG_ID", description = "Replay this organization's trail.")
    String org;

    @Option(names = "--project", paramLabel = "PROJECT_ID", description = "Only entries of this project.")
    String project;

    @Option(names = "--since", paramLabel = "WHEN", description = "Start of the window: an ISO 8601 instant, a date or"
            + " a duration back from now such as 24h, 7d (required with --org).")
    String since;

    @Option(names = "--until", paramLabel = "WHEN", description = "End of the window (default: now).")
    String until;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** Whether the platform was named (any of {@code --org}, {@code --url}, {@code --since}, {@code --project}). */
    public boolean named() {
        return org != null || url != null || since != null || project != null || until != null;
    }

    /**
     * Streams the window's entries to {@code sink}; the exit status: {@link Exit#OK}, or 2 (or 3 for an answer that
     * is not the platform's) after printing why. A refusal is 2 here, not 1: for replay, 1 means "something would
     * break", and CI must not read a refused token as that. A window longer than {@code maxWindow} is a usage error
     * before any request.
     */
    public int stream(Duration maxWindow, Consumer<JsonNode> sink) {
        Output out = new Output(mixee.commandLine().getOut(), mixee.commandLine().getErr(), Output.Format.table);
        int status = read(out, maxWindow, sink);
        return status == Exit.REFUSED ? Exit.USAGE : status;
    }

    private int read(Output out, Duration maxWindow, Consumer<JsonNode> sink) {
        return ApiOptions.guard(out, () -> {
            if (org == null || since == null) {
                throw Failure.usage("replaying a platform's trail needs --org and --since");
            }
            // the platform stores microseconds and refuses finer times rather than round them
            Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
            Instant from = Times.parse("--since", since, false, now);
            Instant to = until == null ? now : Times.parse("--until", until, false, now);
            if (!from.isBefore(to)) {
                throw Failure.usage("--since must be before --until");
            }
            if (Duration.between(from, to).compareTo(maxWindow) > 0) {
                throw Failure.usage("the window is longer than " + maxWindow.toDays() + " days: give a later --since");
            }
            Map<String, String> env = ((Stockade) mixee.root().userObject()).env();
            ApiClient client = ApiOptions.connect(url, token, env, true);
            for (String kind : new String[] {"egress", "tool-call"}) {
                pages(client, kind, from, to, sink);
            }
        });
    }

    private void pages(ApiClient client, String kind, Instant from, Instant to, Consumer<JsonNode> sink) {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("kind", kind);
        q.put("from", from.toString());
        q.put("to", to.toString());
        if (project != null) {
            q.put("projectId", project);
        }
        q.put("limit", "500");
        String base = "/v1/orgs/" + seg(org) + "/audit-trail";
        JsonNode page = client.get(base + ApiClient.query(q));
        while (true) {
            page.path("items").forEach(sink);
            String next = page.path("nextCursor").asText(null);
            if (next == null) {
                return;
            }
            long nextId = page.path("nextCursorId").asLong();
            Map<String, String> more = new LinkedHashMap<>(q);
            more.put("cursor", next);
            more.put("cursorId", Long.toString(nextId));
            JsonNode following = client.get(base + ApiClient.query(more));
            if (Objects.equals(following.path("nextCursor").asText(null), next)
                    && following.path("nextCursorId").asLong() == nextId) {
                throw Failure.unexpected("the audit trail's cursor did not advance past " + next);
            }
            page = following;
        }
    }
}
