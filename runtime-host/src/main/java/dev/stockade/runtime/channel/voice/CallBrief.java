package dev.stockade.runtime.channel.voice;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Toolbox;
import dev.stockade.runtime.provider.ToolSpec;
import java.util.List;

/**
 * What the agent brings to one call, taken from the agent loop when the call starts: the instructions its model would
 * get, the tools it would be offered, and the loop's dispatcher that runs the model's function calls.
 *
 * @param instructions the system prompt as the loop builds it, plus how to speak in a call
 * @param tools the tools offered now (frozen ones withheld while locked)
 * @param dispatch runs one function call through the agent's dispatcher
 */
public record CallBrief(String instructions, List<ToolSpec> tools, Dispatch dispatch) {
    /** Runs one function call of the model and returns its result. */
    @FunctionalInterface
    public interface Dispatch {
        Toolbox.Result run(String callId, String name, JsonNode arguments) throws Exception;
    }

    public CallBrief {
        tools = List.copyOf(tools);
    }
}
