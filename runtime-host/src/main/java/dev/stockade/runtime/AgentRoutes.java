package dev.stockade.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Agent;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.DocumentKind;
import dev.stockade.runtime.agent.Documents;
import dev.stockade.runtime.agent.Memory;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.http.Router;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.store.AgentProfile;
import dev.stockade.runtime.store.AgentStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/** The settings endpoints of runtime.md and the web chat's threads, documents and memory endpoints. */
final class AgentRoutes {
    private final AgentStore agents;
    private final Agent agent;
    private final Conversations conversations;
    private final Documents docs;
    private final Memory memory;
    private final ExecutorService background;

    AgentRoutes(AgentStore agents, Agent agent, Conversations conversations, Documents docs, Memory memory,
            ExecutorService background) {
        this.agents = agents;
        this.agent = agent;
        this.conversations = conversations;
        this.docs = docs;
        this.memory = memory;
        this.background = background;
    }

    void routes(Router r) {
        r.add("GET", "/health", req -> Response.json(200, Map.of("status", "ok")));
        r.add("GET", "/agents/profile", req -> Response.json(200, profile(agents.profile())));
        r.add("PATCH", "/agents/verbose", req -> {
            agents.setVerbose(bool(req.jsonObject(), "verbose"));
            return Response.json(200, profile(agents.profile()));
        });
        r.add("PATCH", "/agents/locked-in", this::lock);
        r.add("GET", "/agents/threads", req -> Response.json(200, Map.of("threads", conversations.recents())));
        r.add("POST", "/agents/threads", req -> {
            JsonNode b = req.body().length == 0 ? Request.JSON.createObjectNode() : req.jsonObject();
            String id = conversations.create("web", b.path("title").asText("New chat"), false);
            return Response.json(201, Map.of("id", id));
        });
        r.add("GET", "/agents/threads/{id}/messages", req -> Response.json(200,
                Map.of("messages", conversations.messages(thread(req).id()))));
        r.add("POST", "/agents/threads/{id}/messages", new ChatCommands(agents, agent, conversations)::post);
        r.add("GET", "/agents/documents/{kind}", req -> Response.json(200, Map.of("kind", kind(req).wire(),
                "content", docs.read(kind(req)))));
        r.add("PUT", "/agents/documents/{kind}", req -> {
            DocumentKind k = kind(req);
            if (!k.writable()) {
                throw new HttpProblem(409, "read-only", "the Agent Guide is read-only");
            }
            JsonNode b = req.jsonObject();
            if (!b.path("content").isTextual()) {
                throw new HttpProblem(400, "invalid-field", "`content` must be a string");
            }
            docs.write(k, b.get("content").asText());
            return Response.json(200, Map.of("kind", k.wire(), "content", docs.read(k)));
        });
        r.add("GET", "/agents/memory", req -> Response.json(200, Map.of("count", memory.count())));
        r.add("POST", "/agents/memory/search", req -> {
            JsonNode b = req.jsonObject();
            if (!b.path("query").isTextual()) {
                throw new HttpProblem(400, "invalid-field", "`query` must be a string");
            }
            return Response.json(200, Map.of("results", memory.search(b.get("query").asText(),
                    Math.max(1, Math.min(50, b.path("limit").asInt(10))))));
        });
    }

    private Response lock(Request req) throws Exception {
        boolean locked = bool(req.jsonObject(), "lockedIn");
        boolean was = agents.profile().lockedIn();
        agents.setLockedIn(locked);
        if (was && !locked && !docs.read(DocumentKind.BOOTSTRAP).isBlank()) {
            // Onboarding was paused by the lock; it runs now, in its own web thread.
            background.execute(() -> {
                try {
                    conversations.createWithId("web:onboarding", "web", "Onboarding", false);
                    agent.run("web:onboarding", "The lock was lifted. Continue onboarding as your Bootstrap "
                            + "document describes.", null);
                } catch (Exception e) {
                    Log.warn("onboarding.failed", "error", e.getClass().getSimpleName());
                }
            });
        }
        return Response.json(200, profile(agents.profile()));
    }

    private Conversations.ThreadInfo thread(Request req) throws Exception {
        Conversations.ThreadInfo t = conversations.thread(req.param("id"));
        if (t == null) {
            throw new HttpProblem(404, "no-thread", "no such thread");
        }
        return t;
    }

    private static DocumentKind kind(Request req) {
        DocumentKind k = DocumentKind.parse(req.param("kind"));
        if (k == null) {
            throw new HttpProblem(404, "no-document", "no such document; one of "
                    + List.of(DocumentKind.values()).stream().map(DocumentKind::wire).toList());
        }
        return k;
    }

    static boolean bool(JsonNode b, String field) {
        JsonNode n = b.get(field);
        if (n == null || !n.isBoolean()) {
            throw new HttpProblem(400, "invalid-field", "`" + field + "` must be a boolean");
        }
        return n.asBoolean();
    }

    static Map<String, Object> profile(AgentProfile p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", p.id());
        m.put("name", p.name());
        m.put("teamName", p.teamName());
        m.put("ownerUserId", p.ownerUserId());
        m.put("modelId", p.modelOverride());
        m.put("heartbeatModelId", p.heartbeatModelOverride());
        m.put("cronModelId", p.cronModelOverride());
        m.put("verbose", p.verbose());
        m.put("lockedIn", p.lockedIn());
        m.put("timezone", p.timezone());
        m.put("heartbeatIntervalMinutes", p.heartbeatIntervalMinutes());
        return m;
    }
}
