package dev.stockade.runtime;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** OpenAI Responses stream events for a scripted reply, as the Responses API sends them. */
final class OpenAiEvents {
    private OpenAiEvents() {
    }

    static List<String[]> events(ProviderDouble.Reply r, ProviderDouble.Call call) {
        List<String[]> out = new ArrayList<>();
        int[] seq = {0};
        out.add(ev(seq, "response.created", n -> n.set("response", response(call, "in_progress", null, r))));
        ArrayNode done = ProviderDouble.JSON.createArrayNode();
        for (int i = 0; i < r.blocks().size(); i++) {
            Object[] b = r.blocks().get(i);
            int index = i;
            if (b[0].equals("text")) {
                String id = "msg_" + i;
                ObjectNode item = ProviderDouble.JSON.createObjectNode().put("type", "message").put("id", id)
                        .put("status", "completed").put("role", "assistant");
                item.putArray("content").addObject().put("type", "output_text").put("text", (String) b[1])
                        .putArray("annotations");
                out.add(ev(seq, "response.output_text.delta", n -> n.put("item_id", id).put("output_index", index)
                        .put("content_index", 0).put("delta", (String) b[1]).putArray("logprobs")));
                if (r.cut()) {
                    out.add(null);
                    return out;
                }
                out.add(ev(seq, "response.output_item.done", n -> n.put("output_index", index).set("item", item)));
                done.add(item);
            } else {
                ObjectNode item = ProviderDouble.JSON.createObjectNode().put("type", "function_call")
                        .put("id", "fc_" + i).put("call_id", "call_" + i).put("name", (String) b[1])
                        .put("arguments", (String) b[2]).put("status", "completed");
                out.add(ev(seq, "response.function_call_arguments.done", n -> n.put("item_id", "fc_" + index)
                        .put("output_index", index).put("arguments", (String) b[2])));
                out.add(ev(seq, "response.output_item.done", n -> n.put("output_index", index).set("item", item)));
                done.add(item);
            }
        }
        out.add(ev(seq, "response.completed", n -> n.set("response", response(call, "completed", done, r))));
        return out;
    }

    private static ObjectNode response(ProviderDouble.Call call, String status, ArrayNode output,
            ProviderDouble.Reply r) {
        ObjectNode res = ProviderDouble.JSON.createObjectNode().put("id", "resp_double").put("object", "response")
                .put("created_at", 1_763_900_000L).put("status", status)
                .put("model", call.body().path("model").asText("gpt")).put("parallel_tool_calls", true)
                .put("tool_choice", "auto").putNull("error").putNull("incomplete_details").putNull("instructions")
                .put("temperature", 1.0).put("top_p", 1.0);
        res.putObject("metadata");
        res.putArray("tools");
        res.set("output", output == null ? ProviderDouble.JSON.createArrayNode() : output);
        if (output != null) {
            ObjectNode u = res.putObject("usage").put("input_tokens", r.inputTokens()).put("output_tokens", 42)
                    .put("total_tokens", r.inputTokens() + 42);
            u.putObject("input_tokens_details").put("cached_tokens", 0);
            u.putObject("output_tokens_details").put("reasoning_tokens", 0);
        }
        return res;
    }

    private static String[] ev(int[] seq, String type, java.util.function.Consumer<ObjectNode> fill) {
        ObjectNode n = ProviderDouble.JSON.createObjectNode().put("type", type).put("sequence_number", seq[0]++);
        fill.accept(n);
        return new String[] {type, n.toString()};
    }
}
