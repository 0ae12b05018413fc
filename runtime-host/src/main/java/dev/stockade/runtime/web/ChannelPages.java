package dev.stockade.runtime.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.channel.SlackDestinations;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.http.Router;
import dev.stockade.runtime.store.AgentProfile;
import dev.stockade.runtime.store.AgentStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The Channels page and its API: link Slack destinations (a person's direct message for personal mode, channels for
 * team mode) and flag the team-mode main channel, all through {@link SlackDestinations}, which deliveries read.
 */
final class ChannelPages {
    /** Slack's ids: an upper-case letter then upper-case letters and digits ({@code C0123ABCD}, {@code U024BE7LH}). */
    static final Pattern SLACK_ID = Pattern.compile("[A-Z][A-Z0-9]{2,40}");

    /** What a destination is. */
    enum Kind {
        /** A person's direct message: personal mode. */
        DM("dm"),
        /** A channel: team mode. */
        CHANNEL("channel");

        final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        static Kind parse(String s) {
            for (Kind k : values()) {
                if (k.wire.equals(s.strip().toLowerCase(Locale.ROOT))) {
                    return k;
                }
            }
            throw new HttpProblem(400, "invalid-kind", "`kind` must be dm or channel");
        }
    }

    private final AgentStore agents;
    private final SlackDestinations slack;

    ChannelPages(AgentStore agents, SlackDestinations slack) {
        this.agents = agents;
        this.slack = slack;
    }

    void routes(Router r) {
        r.add("GET", "/channels", req -> page());
        r.add("GET", "/agents/slack-destinations", req -> Response.json(200,
                Map.of("destinations", slack.list().stream().map(ChannelPages::view).toList())));
        r.add("POST", "/agents/slack-destinations", this::link);
        r.add("PATCH", "/agents/slack-destinations/{id}", this::flag);
    }

    private Response link(Request req) throws Exception {
        JsonNode b = req.jsonObject();
        Kind kind = Kind.parse(text(b, "kind"));
        String slackId = text(b, "slackId").strip();
        if (!SLACK_ID.matcher(slackId).matches()) {
            throw new HttpProblem(400, "invalid-slack-id", "`slackId` must be a Slack id such as C0123ABCD");
        }
        boolean main = b.path("main").asBoolean(false);
        if (main && kind != Kind.CHANNEL) {
            throw new HttpProblem(400, "main-not-channel", "only a channel can be the team-mode main channel");
        }
        String id = slack.link(kind.wire, slackId, false, null);
        if (main) {
            slack.flagMain(id);
        }
        return Response.json(201, Map.of("id", id));
    }

    private Response flag(Request req) throws Exception {
        JsonNode b = req.jsonObject();
        if (!b.path("main").isBoolean() || !b.get("main").asBoolean()) {
            throw new HttpProblem(400, "invalid-field", "`main` must be true (flagging another channel clears it)");
        }
        if (!slack.flagMain(req.param("id"))) {
            throw new HttpProblem(404, "no-channel", "no linked channel with that id");
        }
        return Response.json(200, Map.of("main", req.param("id")));
    }

    private Response page() throws Exception {
        AgentProfile p = agents.profile();
        List<SlackDestinations.Linked> linked = slack.list();
        StringBuilder body = new StringBuilder("<h1>Channels</h1><p>All-channels deliveries reach Slack at the main "
                + "channel (else the oldest linked channel) in team mode, or the direct message in personal mode.</p>"
                + "<table id=\"destinations\"><thead><tr><th>Kind</th><th>Slack id</th><th>Linked</th><th>Main</th>"
                + "</tr></thead><tbody>");
        for (SlackDestinations.Linked l : linked) {
            SlackDestinations.Destination d = l.destination();
            body.append("<tr><td>").append(Html.text(d.kind())).append("</td><td><code>").append(Html.text(d.slackId()))
                    .append("</code></td><td>").append(Html.text(l.createdAt())).append("</td><td>");
            if ("channel".equals(d.kind())) {
                body.append("<input type=\"radio\" name=\"main\" data-field=\"main\" data-api=\"PATCH ")
                        .append(Html.text("agents/slack-destinations/" + d.id())).append('"')
                        .append(l.main() ? " checked" : "").append('>');
            }
            body.append("</td></tr>");
        }
        body.append("</tbody></table><h2>Link a destination</h2>"
                + "<form id=\"link-destination\" data-api=\"POST agents/slack-destinations\"><label>Kind <select "
                + "name=\"kind\"><option value=\"channel\">Channel (team mode)</option><option value=\"dm\">Direct "
                + "message (personal mode)</option></select></label>"
                + Html.field("slackId", "Slack id", "", "C0123ABCD for a channel, U024BE7LH or D… for a person")
                + Html.checkbox("main", "Main channel", false) + "<button type=\"submit\">Link</button></form>");
        return Html.page(Html.Page.CHANNELS, "./", p.name(), p.lockedIn(), body.toString());
    }

    private static Map<String, Object> view(SlackDestinations.Linked l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", l.destination().id());
        m.put("kind", l.destination().kind());
        m.put("slackId", l.destination().slackId());
        m.put("main", l.main());
        m.put("createdAt", l.createdAt());
        return m;
    }

    private static String text(JsonNode b, String field) {
        if (!b.path(field).isTextual()) {
            throw new HttpProblem(400, "invalid-field", "`" + field + "` must be a string");
        }
        return b.get(field).asText();
    }
}
