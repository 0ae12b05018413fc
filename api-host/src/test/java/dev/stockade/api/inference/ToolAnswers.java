package dev.stockade.api.inference;

import static dev.stockade.api.inference.EchoText.quoted;

/**
 * The answer shapes a provider double uses when its echo comes back as something other than text: a tool call whose
 * input holds the echoed text (written as models write tool input, JSON source text), or a thinking block. The
 * shapes follow each provider's wire format (Anthropic Messages, Chat Completions); the doubles stream the input's
 * source text and the thinking in pieces of five characters.
 */
final class ToolAnswers {
    /** What a double answers with. */
    enum Reply { TEXT, TOOL_USE, THINKING }

    static final String TOOL = "send_note";
    static final String SIGNATURE = "c2lnbmVk";

    private ToolAnswers() {
    }

    /** The tool input a model writes to pass {@code text} on: JSON source text. */
    static String input(String text) {
        return "{\"note\": " + quoted(text) + ", \"copies\": 2}";
    }

    /** The whole Anthropic content array for {@code reply} around {@code text}. */
    static String anthropicContent(Reply reply, String text) {
        return switch (reply) {
            case TOOL_USE -> "[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"" + TOOL + "\",\"input\":"
                    + input(text) + "}]";
            case THINKING -> "[{\"type\":\"thinking\",\"thinking\":" + quoted(text) + ",\"signature\":\"" + SIGNATURE
                    + "\"},{\"type\":\"text\",\"text\":\"done\"}]";
            case TEXT -> "[{\"type\":\"text\",\"text\":" + quoted(text) + "}]";
        };
    }

    /** The streamed source of block 0: the text itself, or the tool input's JSON. */
    static String streamed(Reply reply, String text) {
        return reply == Reply.TOOL_USE ? input(text) : text;
    }

    /** The {@code content_block} of block 0's {@code content_block_start}. */
    static String anthropicStart(Reply reply) {
        return switch (reply) {
            case TOOL_USE -> "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"" + TOOL + "\",\"input\":{}}";
            case THINKING -> "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}";
            case TEXT -> "{\"type\":\"text\",\"text\":\"\"}";
        };
    }

    /** A {@code content_block_delta} of block 0 carrying {@code piece}. */
    static String anthropicDelta(Reply reply, String piece) {
        String delta = switch (reply) {
            case TOOL_USE -> "{\"type\":\"input_json_delta\",\"partial_json\":" + quoted(piece) + "}";
            case THINKING -> "{\"type\":\"thinking_delta\",\"thinking\":" + quoted(piece) + "}";
            case TEXT -> "{\"type\":\"text_delta\",\"text\":" + quoted(piece) + "}";
        };
        return "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":" + delta + "}";
    }

    /** The thinking block's signature, sent as its last delta. */
    static String signatureDelta() {
        return "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\","
                + "\"signature\":\"" + SIGNATURE + "\"}}";
    }

    /** A Chat Completions message for {@code reply}: content, or one function call whose arguments hold the text. */
    static String chatMessage(Reply reply, String text) {
        if (reply != Reply.TOOL_USE) {
            return "{\"role\":\"assistant\",\"content\":" + quoted(text) + "}";
        }
        return "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"" + TOOL + "\",\"arguments\":" + quoted(input(text)) + "}}]}";
    }

    /** A Chat Completions chunk's delta carrying {@code piece}; the first one names the role and the call. */
    static String chatDelta(Reply reply, String piece, boolean first) {
        String role = first ? "\"role\":\"assistant\"," : "";
        if (reply != Reply.TOOL_USE) {
            return "{" + role + "\"content\":" + quoted(piece) + "}";
        }
        String call = first ? "\"id\":\"call_1\",\"type\":\"function\"," : "";
        String name = first ? "\"name\":\"" + TOOL + "\"," : "";
        return "{" + role + "\"tool_calls\":[{\"index\":0," + call + "\"function\":{" + name + "\"arguments\":"
                + quoted(piece) + "}}]}";
    }

    /** The finish reason of a Chat Completions answer of {@code reply}. */
    static String chatFinish(Reply reply) {
        return reply == Reply.TOOL_USE ? "tool_calls" : "stop";
    }
}
