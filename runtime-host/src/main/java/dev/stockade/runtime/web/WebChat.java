package dev.stockade.runtime.web;

import dev.stockade.runtime.agent.Agent;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.http.Router;
import dev.stockade.runtime.store.AgentProfile;
import dev.stockade.runtime.store.AgentStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The chat pages of the web UI: {@code /} (the thread list) and {@code /chat/<thread>} (the list and the open
 * thread), its static scripts and style, and the live stream of a thread. A turn is sent to the runtime's one chat
 * route, so the web chat is an adapter over the one agent loop, not a copy of it.
 */
final class WebChat {
    /** The files under {@code /static/}: a fixed set, so no request names a path of its own. */
    enum Asset {
        APP("app.js", "text/javascript; charset=utf-8"), CHAT("chat.js", "text/javascript; charset=utf-8"),
        STYLE("style.css", "text/css; charset=utf-8");

        final String file;
        final String type;

        Asset(String file, String type) {
            this.file = file;
            this.type = type;
        }
    }

    private final AgentStore agents;
    private final Agent agent;
    private final Conversations conversations;

    WebChat(AgentStore agents, Agent agent, Conversations conversations) {
        this.agents = agents;
        this.agent = agent;
        this.conversations = conversations;
    }

    /** Adds the chat pages, the static files and the live stream. */
    void routes(Router r) {
        r.add("GET", "/", req -> page(null, "./"));
        r.add("GET", "/chat/{id}", req -> page(req.param("id"), "../"));
        r.add("GET", "/static/{file}", WebChat::asset);
        r.add("GET", "/agents/threads/{id}/live/{after}", new LiveFeed(conversations, agents)::open);
    }

    private Response page(String threadId, String root) throws Exception {
        AgentProfile p = agents.profile();
        Conversations.ThreadInfo open = threadId == null ? null : conversations.thread(threadId);
        if (threadId != null && (open == null || open.hidden())) {
            return notFound(p, root);
        }
        StringBuilder body = new StringBuilder("<div class=\"chat\"><aside><button type=\"button\" id=\"new-thread\">"
                + "New chat</button><ul id=\"threads\">");
        for (Conversations.ThreadInfo t : conversations.recents()) {
            body.append("<li><a href=\"").append(Html.text(link(t.id()))).append('"')
                    .append(open != null && t.id().equals(open.id()) ? " aria-current=\"page\"" : "").append('>')
                    .append(Html.text(t.title())).append("</a></li>");
        }
        body.append("</ul></aside>");
        body.append(open == null ? "<section id=\"empty\"><p>Start a new chat, or resume one from the list.</p></section>"
                : thread(open, p));
        return Html.page(Html.Page.CHAT, root, p.name(), p.lockedIn(), body.append("</div>").toString(), "chat.js");
    }

    private String thread(Conversations.ThreadInfo t, AgentProfile p) throws Exception {
        List<Conversations.Message> messages = conversations.messages(t.id());
        long last = messages.isEmpty() ? 0 : messages.get(messages.size() - 1).id();
        StringBuilder items = new StringBuilder();
        for (Conversations.Message m : messages) {
            Transcript.entry(m, p.verbose()).ifPresent(e -> items.append(Transcript.html(e)));
        }
        Integer window = agent.compactor().window(agent.modelFor(null));
        // The indicator exists only when a catalog layer knows the model's window; its percentage comes with a turn.
        String context = window == null ? "" : "<span id=\"context\" data-window=\"" + window + "\">Context: "
                + String.format(Locale.ROOT, "%,d", window) + " tokens</span>";
        return "<section id=\"thread\" data-thread=\"" + Html.text(t.id()) + "\" data-last=\"" + last + "\">"
                + "<div class=\"bar\"><h1>" + Html.text(t.title()) + "</h1>"
                + "<label class=\"switch\"><input type=\"checkbox\" id=\"verbose\"" + (p.verbose() ? " checked" : "")
                + "> Verbose</label>" + context + "</div><ol id=\"messages\">" + items + "</ol>"
                + "<form id=\"composer\"><textarea id=\"text\" name=\"text\" rows=\"3\" required "
                + "placeholder=\"Message the agent (/compact, /model …)\"></textarea>"
                + "<button type=\"submit\">Send</button></form></section>";
    }

    private static Response notFound(AgentProfile p, String root) {
        Response page = Html.page(Html.Page.CHAT, root, p.name(), p.lockedIn(),
                "<p>No such thread. <a href=\"./\">Back to the chats</a></p>");
        return new Response(404, page.contentType(), page.body(), null, page.headers());
    }

    /** A thread's link relative to the root (ids hold {@code :}, which must not read as a URL scheme). */
    static String link(String threadId) {
        return "chat/" + URLEncoder.encode(threadId, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static Response asset(Request req) throws IOException {
        for (Asset a : Asset.values()) {
            if (a.file.equals(req.param("file"))) {
                try (InputStream in = WebChat.class.getResourceAsStream("/web/" + a.file)) {
                    return new Response(200, a.type, in.readAllBytes())
                            .withHeaders(Map.of("X-Content-Type-Options", "nosniff", "Cache-Control", "no-cache"));
                }
            }
        }
        throw new HttpProblem(404, "not-found", "no such file");
    }
}
