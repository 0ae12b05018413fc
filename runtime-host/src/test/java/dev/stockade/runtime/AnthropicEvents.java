package dev.stockade.runtime;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** Anthropic Messages stream events for a scripted reply, as the Messages API sends them. */
final class AnthropicEvents {
    /** Marks where a stream of pieces waits for the test ({@link ProviderDouble#holdPieces}). */
    static final String[] PAUSE = {"pause"};

    private AnthropicEvents() {
    }

    /** Event name and JSON data pairs; a {@code null} entry marks where a cut stream stops. */
    static List<String[]> events(ProviderDouble.Reply r, ProviderDouble.Call call) {
        List<String[]> out = new ArrayList<>();
        ObjectNode start = ProviderDouble.JSON.createObjectNode().put("type", "message_start");
        ObjectNode msg = start.putObject("message").put("id", "msg_double_1").put("type", "message")
                .put("role", "assistant").put("model", call.body().path("model").asText("claude"));
        msg.putArray("content");
        msg.putNull("stop_reason");
        msg.putNull("stop_sequence");
        msg.putObject("usage").put("input_tokens", r.inputTokens()).put("output_tokens", 1)
                .put("cache_creation_input_tokens", 0).put("cache_read_input_tokens", 0);
        out.add(ev(start));
        out.add(new String[] {"ping", "{\"type\": \"ping\"}"});
        boolean tool = false;
        for (int i = 0; i < r.blocks().size(); i++) {
            Object[] b = r.blocks().get(i);
            ObjectNode bs = ProviderDouble.JSON.createObjectNode().put("type", "content_block_start").put("index", i);
            ObjectNode delta = ProviderDouble.JSON.createObjectNode().put("type", "content_block_delta").put("index", i);
            if (b[0].equals("text")) {
                bs.putObject("content_block").put("type", "text").put("text", "");
                delta.putObject("delta").put("type", "text_delta").put("text", (String) b[1]);
            } else {
                tool = true;
                ObjectNode cb = bs.putObject("content_block").put("type", "tool_use").put("id", "toolu_" + i + "_"
                        + Integer.toHexString(call.hashCode())).put("name", (String) b[1]);
                cb.putObject("input");
                delta.putObject("delta").put("type", "input_json_delta").put("partial_json", (String) b[2]);
            }
            out.add(ev(bs));
            if (b[0].equals("text") && b.length > 2) {
                String[] pieces = (String[]) b[2];
                for (int p = 0; p < pieces.length; p++) {
                    if (p > 0) {
                        out.add(PAUSE);
                    }
                    ObjectNode d = ProviderDouble.JSON.createObjectNode().put("type", "content_block_delta").put("index", i);
                    d.putObject("delta").put("type", "text_delta").put("text", pieces[p]);
                    out.add(ev(d));
                }
            } else {
                out.add(ev(delta));
            }
            if (r.cut()) {
                out.add(null);
                return out;
            }
            out.add(ev(ProviderDouble.JSON.createObjectNode().put("type", "content_block_stop").put("index", i)));
        }
        ObjectNode md = ProviderDouble.JSON.createObjectNode().put("type", "message_delta");
        md.putObject("delta").put("stop_reason", tool ? "tool_use" : "end_turn").putNull("stop_sequence");
        md.putObject("usage").put("output_tokens", 42);
        out.add(ev(md));
        out.add(new String[] {"message_stop", "{\"type\":\"message_stop\"}"});
        return out;
    }

    private static String[] ev(ObjectNode n) {
        return new String[] {n.path("type").asText(), n.toString()};
    }
}
