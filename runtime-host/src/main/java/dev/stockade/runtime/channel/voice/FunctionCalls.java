package dev.stockade.runtime.channel.voice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.agent.Toolbox;
import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.json.StrictJson;
import dev.stockade.runtime.observe.Log;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The realtime model's function calls, run one at a time on their own thread (a tool may take minutes; the call's
 * audio must keep flowing) through the agent's dispatcher. Each result goes back as a {@code function_call_output}
 * item; once a response that called functions is done and its results are in, {@code response.create} lets the model
 * speak about them, as the Realtime protocol asks.
 */
final class FunctionCalls implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CallBrief.Dispatch dispatch;
    private final Consumer<ObjectNode> send;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "voice-tools");
        t.setDaemon(true);
        return t;
    });
    /** Function names by call id, from {@code response.output_item.added}, for servers whose done event omits it. */
    private final Map<String, String> names = new ConcurrentHashMap<>();

    FunctionCalls(CallBrief.Dispatch dispatch, Consumer<ObjectNode> send) {
        this.dispatch = dispatch;
        this.send = send;
    }

    /** A new output item: remembers the name of a function call. */
    void itemAdded(JsonNode item) {
        if ("function_call".equals(item.path("type").asText()) && item.hasNonNull("call_id")) {
            names.put(item.path("call_id").asText(), item.path("name").asText(""));
        }
    }

    /** {@code response.function_call_arguments.done}: runs the call and sends its output. */
    void argumentsDone(JsonNode e) {
        String callId = e.path("call_id").asText("");
        String name = e.hasNonNull("name") ? e.path("name").asText() : names.getOrDefault(callId, "");
        String arguments = e.path("arguments").asText("");
        runner.execute(() -> send.accept(output(callId, run(callId, name, arguments))));
    }

    /** {@code response.done}: when the response called functions, asks for the answer after their outputs. */
    void responseDone(JsonNode response) {
        for (JsonNode item : response.path("output")) {
            if ("function_call".equals(item.path("type").asText())) {
                runner.execute(() -> send.accept(JSON.createObjectNode().put("type", "response.create")));
                return;
            }
        }
    }

    private String run(String callId, String name, String arguments) {
        JsonNode input;
        try {
            input = arguments.isBlank() ? JSON.createObjectNode() : StrictJson.object(arguments);
        } catch (MalformedJson e) {
            return "error: the arguments of `" + name + "` are not a JSON object";
        }
        try {
            Toolbox.Result r = dispatch.run(callId, name, input);
            return r.error() ? "error: " + r.output() : r.output();
        } catch (Exception e) {
            Log.warn("voice.tool_failed", "tool", name, "error", e.getClass().getSimpleName());
            return "error: the tool failed (" + e.getClass().getSimpleName() + ")";
        }
    }

    private static ObjectNode output(String callId, String output) {
        ObjectNode msg = JSON.createObjectNode().put("type", "conversation.item.create");
        msg.putObject("item").put("type", "function_call_output").put("call_id", callId).put("output", output);
        return msg;
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }
}
