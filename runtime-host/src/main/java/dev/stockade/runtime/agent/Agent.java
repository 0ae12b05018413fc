package dev.stockade.runtime.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.Log;
import dev.stockade.runtime.Telemetry;
import dev.stockade.runtime.channel.Conversations;
import dev.stockade.runtime.provider.ChatModel;
import dev.stockade.runtime.provider.Item;
import dev.stockade.runtime.provider.ModelReply;
import dev.stockade.runtime.provider.ModelRequest;
import dev.stockade.runtime.provider.ProviderException;
import dev.stockade.runtime.store.AgentProfile;
import dev.stockade.runtime.store.AgentStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The one agent of this runtime: a turn runs the model with tools until it answers. Every channel
 * (web chat, webhooks, cron, heartbeat, later Slack and voice) calls {@link #turn}.
 */
public final class Agent implements AgentTask {
    /** Most model calls in one turn; a turn that needs more ends with a notice. */
    public static final int MAX_STEPS = 25;
    private static final int MAX_TOKENS = 8192;

    /** What a turn produced: the delivered text steps, and the last call's input tokens. */
    public record TurnResult(List<String> delivered, String finalText, long inputTokens, boolean compacted) {
    }

    private final ChatModel model;
    private final Conversations conversations;
    private final AgentStore agents;
    private final Documents docs;
    private final Toolbox tools;
    private final Compactor compactor;
    private final String defaultModel;
    private final Telemetry telemetry;

    public Agent(ChatModel model, Conversations conversations, AgentStore agents, Documents docs, Toolbox tools,
            Compactor compactor, String defaultModel, Telemetry telemetry) {
        this.model = model;
        this.conversations = conversations;
        this.agents = agents;
        this.docs = docs;
        this.tools = tools;
        this.compactor = compactor;
        this.defaultModel = defaultModel;
        this.telemetry = telemetry;
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
        return turn(threadId, prompt, modelId, s -> { }).finalText();
    }

    /**
     * Runs one turn of {@code threadId} for {@code userText}. Text steps go to {@code deliver}: all of them
     * when verbose, else only the final one; intermediate steps are stored marked internal.
     */
    public TurnResult turn(String threadId, String userText, String modelId, Consumer<String> deliver)
            throws Exception {
        String m = modelFor(modelId);
        conversations.append(threadId, "user", userText, false);
        List<String> delivered = new ArrayList<>();
        long lastInput = 0;
        int toolCalls = 0;
        for (int step = 0; step < MAX_STEPS; step++) {
            AgentProfile p = agents.profile();
            Conversations.ThreadInfo t = conversations.thread(threadId);
            List<Item> items = Context.history(t, conversations.live(threadId));
            ModelReply r = model.complete(new ModelRequest(m, Context.system(p, docs), items,
                    tools.offered(p.lockedIn()), MAX_TOKENS), s -> { });
            lastInput = r.inputTokens();
            boolean last = r.toolCalls().isEmpty();
            for (Item it : r.items()) {
                if (it instanceof Item.AssistantText a && !a.text().isBlank()) {
                    boolean deliverNow = last || p.verbose();
                    conversations.append(threadId, "assistant", a.text(), !deliverNow);
                    if (deliverNow) {
                        delivered.add(a.text());
                        deliver.accept(a.text());
                    }
                } else if (it instanceof Item.ToolCall c) {
                    runTool(threadId, c);
                    toolCalls++;
                }
            }
            if (last) {
                boolean compacted = compactor.afterTurn(threadId, m, lastInput);
                telemetry.event("agent.turn", "thread", threadId, "steps", step + 1, "tool_calls", toolCalls,
                        "verbose", p.verbose(), "locked", p.lockedIn(), "compacted", compacted,
                        "input_tokens", lastInput);
                String fin = delivered.isEmpty() ? "" : delivered.get(delivered.size() - 1);
                return new TurnResult(delivered, fin, lastInput, compacted);
            }
        }
        throw new ProviderException("the turn needed more than " + MAX_STEPS + " model calls and was stopped", 0,
                false);
    }

    private void runTool(String threadId, Item.ToolCall c) throws Exception {
        ObjectNode use = Toolbox.JSON.createObjectNode().put("id", c.id()).put("name", c.name());
        use.set("input", c.input());
        conversations.append(threadId, "tool_use", use.toString(), true);
        Toolbox.Result res = tools.call(c.name(), c.input());
        Log.info("agent.tool", "tool", c.name(), "error", res.error());
        ObjectNode out = Toolbox.JSON.createObjectNode().put("id", c.id()).put("output", res.output())
                .put("error", res.error());
        conversations.append(threadId, "tool_result", out.toString(), true);
    }

    public Compactor compactor() {
        return compactor;
    }
}
