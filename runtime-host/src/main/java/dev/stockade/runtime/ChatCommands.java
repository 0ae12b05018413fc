package dev.stockade.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Agent;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.TurnListener;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.provider.ProviderException;
import dev.stockade.runtime.store.AgentStore;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A web chat message: slash commands ({@code /compact}, {@code /model}, {@code /heartbeat-model},
 * {@code /cron-model}) or a turn of the agent. The answer lists the text steps delivered; with
 * {@code Accept: text/event-stream} the turn streams instead: {@code delta} (pieces of a text step as they
 * arrive, verbose only), {@code step} (a delivered text step), {@code tool} (a tool ran), then {@code done}
 * (the JSON answer's fields) or {@code error} (a problem object).
 */
final class ChatCommands {
    private static final int MAX_TEXT = 100_000;
    private final AgentStore agents;
    private final Agent agent;
    private final Conversations conversations;

    ChatCommands(AgentStore agents, Agent agent, Conversations conversations) {
        this.agents = agents;
        this.agent = agent;
        this.conversations = conversations;
    }

    Response post(Request req) throws Exception {
        Conversations.ThreadInfo t = conversations.thread(req.param("id"));
        if (t == null) {
            throw new HttpProblem(404, "no-thread", "no such thread");
        }
        JsonNode b = req.jsonObject();
        if (!b.path("text").isTextual() || b.get("text").asText().isBlank()
                || b.get("text").asText().length() > MAX_TEXT) {
            throw new HttpProblem(400, "invalid-field", "`text` must be a non-empty string of at most "
                    + MAX_TEXT + " characters");
        }
        String text = b.get("text").asText().strip();
        if (text.startsWith("/")) {
            return command(t.id(), text);
        }
        String accept = req.header("accept");
        if (accept != null && accept.contains("text/event-stream")) {
            return Response.events(events -> events.send("done", turn(t.id(), text, new TurnListener() {
                @Override
                public void delta(String piece) {
                    events.send("delta", Map.of("text", piece));
                }

                @Override
                public void step(String step) {
                    events.send("step", Map.of("text", step));
                }

                @Override
                public void tool(String name, boolean error) {
                    events.send("tool", Request.JSON.createObjectNode().put("name", name).put("error", error));
                }
            })));
        }
        return Response.json(200, turn(t.id(), text, TurnListener.NONE));
    }

    /** Runs the turn; a provider failure is stored as a notice in the thread and answered 502. */
    private Map<String, Object> turn(String threadId, String text, TurnListener listener) throws Exception {
        try {
            Agent.TurnResult r = agent.turn(threadId, text, null, listener);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("delivered", r.delivered());
            out.put("compacted", r.compacted());
            out.put("contextPercent", agent.compactor().occupancy(agent.modelFor(null), r.inputTokens()));
            return out;
        } catch (ProviderException e) {
            conversations.append(threadId, "notice", "The turn failed: " + e.getMessage(), false);
            throw new HttpProblem(502, "provider-failed", e.getMessage());
        }
    }

    private Response command(String threadId, String text) throws Exception {
        String[] parts = text.split("\\s+", 2);
        String arg = parts.length > 1 ? parts[1].strip() : "";
        switch (parts[0]) {
            case "/compact":
                boolean done = agent.compactor().compact(threadId, agent.modelFor(null));
                return Response.json(200, Map.of("compacted", done));
            case "/model":
            case "/heartbeat-model":
            case "/cron-model":
                String slot = parts[0].equals("/model") ? "main" : parts[0].substring(1, parts[0].indexOf("-model"));
                if (!arg.isEmpty() && !arg.matches("[A-Za-z0-9._:/@-]{1,200}")) {
                    throw new HttpProblem(400, "invalid-model", "a model id has no spaces or special characters");
                }
                agents.setModel(slot, arg.isEmpty() ? null : arg);
                return Response.json(200, AgentRoutes.profile(agents.profile()));
            default:
                throw new HttpProblem(400, "unknown-command", "unknown command; try /compact, /model, "
                        + "/heartbeat-model or /cron-model");
        }
    }
}
