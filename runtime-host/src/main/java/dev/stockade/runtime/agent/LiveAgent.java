package dev.stockade.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.provider.ToolSpec;
import java.util.List;

/**
 * The one agent as a live channel (a voice call) drives it, where the channel's own model runs the conversation: it
 * takes the instructions and tools the loop would give its model now, and runs tool calls through the loop's one
 * dispatcher, so a call gets no agent logic of its own.
 */
public interface LiveAgent {
    /** The system prompt the loop would send now: persona, documents, memory summary, skills, links and the lock. */
    String instructions() throws Exception;

    /** The tools the loop offers now; frozen ones are withheld while the agent is locked in. */
    List<ToolSpec> tools() throws Exception;

    /**
     * Runs one tool call through the loop's dispatcher (the lock applies) and stores it in {@code threadId} as the loop
     * stores its own calls.
     */
    Toolbox.Result call(String threadId, String callId, String name, JsonNode input) throws Exception;
}
