package dev.stockade.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import dev.stockade.runtime.observe.Tracing;
import dev.stockade.runtime.provider.ChatModel;
import dev.stockade.runtime.provider.Item;
import dev.stockade.runtime.provider.ModelReply;
import dev.stockade.runtime.provider.ModelRequest;
import dev.stockade.runtime.provider.ProviderException;
import dev.stockade.runtime.provider.ToolSpec;
import dev.stockade.runtime.store.AgentProfile;
import dev.stockade.runtime.store.AgentStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The one agent of this runtime: a turn runs the model with tools until it answers. Every channel
 * (web chat, webhooks, cron, heartbeat, Slack) calls {@link #turn}; a voice call, whose realtime model converses
 * itself, takes the same instructions, tools and dispatcher through {@link LiveAgent}.
 */
public final class Agent implements AgentTask, LiveAgent {
    /** Most model calls in one turn; a turn that needs more ends with a notice. */
    public static final int MAX_STEPS = 25;
    private static final int MAX_TOKENS = 8192;

    /** What a turn produced: the delivered text steps, and the last call's input tokens. */
    public record TurnResult(List<String> delivered, String finalText, long inputTokens, boolean compacted) {
    }

    private final ChatModel model;
    private final Conversations conversations;
    private final AgentStore agents;
    private final SystemPrompt prompt;
    private final Toolbox tools;
    private final Compactor compactor;
    private final String defaultModel;
    private final Telemetry telemetry;
    private final Tracing tracing;

    public Agent(ChatModel model, Conversations conversations, AgentStore agents, SystemPrompt prompt, Toolbox tools,
            Compactor compactor, String defaultModel, Telemetry telemetry, Tracing tracing) {
        this.model = model;
        this.conversations = conversations;
        this.agents = agents;
        this.prompt = prompt;
        this.tools = tools;
        this.compactor = compactor;
        this.defaultModel = defaultModel;
        this.telemetry = telemetry;
        this.tracing = tracing;
    }

    /** The model a turn uses: {@code requested}, else the agent's override, else the env default. */
    public String modelFor(String requested) throws Exception {
        if (requested != null && !requested.isBlank()) {
            return requested;
        }
        AgentProfile p = agents.profile();
        return p.modelOverride() != null ? p.modelOverride() : defaultModel;
    }

    @Override
    public String run(String threadId, String prompt, String modelId) throws Exception {
        return turn(threadId, prompt, modelId, TurnListener.NONE).finalText();
    }

    /**
     * Runs one turn of {@code threadId} for {@code userText}. Text steps go to {@code listener}: all of them
     * (with their pieces as they arrive) when verbose, else only the final one; intermediate steps are stored
     * marked internal.
     */
    public TurnResult turn(String threadId, String userText, String modelId, TurnListener listener)
            throws Exception {
        String m = modelFor(modelId);
        conversations.append(threadId, "user", userText, false);
        Tracing.Trace trace = tracing.turn(threadId);
        List<String> delivered = new ArrayList<>();
        long lastInput = 0;
        int toolCalls = 0;
        for (int step = 0; step < MAX_STEPS; step++) {
            AgentProfile p = agents.profile();
            ModelReply r = call(trace, m, threadId, p, listener);
            lastInput = r.inputTokens();
            boolean last = r.toolCalls().isEmpty();
            for (Item it : r.items()) {
                if (it instanceof Item.AssistantText a && !a.text().isBlank()) {
                    boolean deliverNow = last || p.verbose();
                    conversations.append(threadId, "assistant", a.text(), !deliverNow);
                    if (deliverNow) {
                        delivered.add(a.text());
                        listener.step(a.text());
                    }
                } else if (it instanceof Item.ToolCall c) {
                    Instant from = Instant.now();
                    boolean error = call(threadId, c.id(), c.name(), c.input()).error();
                    trace.tool(c.name(), from, error);
                    listener.tool(c.name(), error);
                    toolCalls++;
                }
            }
            if (last) {
                boolean compacted = compactor.afterTurn(threadId, m, lastInput);
                telemetry.event("agent.turn", "thread", threadId, "steps", step + 1, "tool_calls", toolCalls,
                        "verbose", p.verbose(), "locked", p.lockedIn(), "compacted", compacted,
                        "input_tokens", lastInput);
                trace.end(step + 1, toolCalls, false);
                String fin = delivered.isEmpty() ? "" : delivered.get(delivered.size() - 1);
                return new TurnResult(delivered, fin, lastInput, compacted);
            }
        }
        trace.end(MAX_STEPS, toolCalls, true);
        throw new ProviderException("the turn needed more than " + MAX_STEPS + " model calls and was stopped", 0,
                false);
    }

    /** One model call of a turn, traced; its text pieces reach {@code listener} only when verbose. */
    private ModelReply call(Tracing.Trace trace, String m, String threadId, AgentProfile p, TurnListener listener)
            throws Exception {
        Conversations.ThreadInfo t = conversations.thread(threadId);
        List<Item> items = Context.history(t, conversations.live(threadId));
        Instant from = Instant.now();
        try {
            ModelReply r = model.complete(new ModelRequest(m, prompt.build(p), items,
                    tools.offered(p.lockedIn()), MAX_TOKENS), p.verbose() ? listener::delta : s -> { });
            trace.generation(m, from, r.inputTokens(), r.outputTokens(), null);
            return r;
        } catch (ProviderException e) {
            trace.generation(m, from, 0, 0, e);
            trace.end(0, 0, true);
            throw e;
        }
    }

    @Override
    public String instructions() throws Exception {
        return prompt.build(agents.profile());
    }

    @Override
    public List<ToolSpec> tools() throws Exception {
        return tools.offered(agents.profile().lockedIn());
    }

    @Override
    public Toolbox.Result call(String threadId, String callId, String name, JsonNode input) throws Exception {
        ObjectNode use = Toolbox.JSON.createObjectNode().put("id", callId).put("name", name);
        use.set("input", input);
        conversations.append(threadId, "tool_use", use.toString(), true);
        Toolbox.Result res = tools.call(name, input);
        Log.info("agent.tool", "tool", name, "error", res.error());
        ObjectNode out = Toolbox.JSON.createObjectNode().put("id", callId).put("output", res.output())
                .put("error", res.error());
        conversations.append(threadId, "tool_result", out.toString(), true);
        return res;
    }

    public Compactor compactor() {
        return compactor;
    }
}
