package dev.stockade.api.inference;

import static dev.stockade.api.inference.EchoText.quoted;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The answer shapes a provider double uses when its echo comes back as something other than text: a tool call whose
 * input holds the echoed text (written as models write tool input, JSON source text), or a tool-use turn that thinks
 * first, or a text block that cites the document it was sent. The shapes follow each provider's wire format (Anthropic
 * Messages, Chat Completions); the doubles stream the input's source text, the text and the thinking in pieces of
 * five characters.
 */
final class ToolAnswers {
    /** What a double answers with. */
    enum Reply {
        TEXT, TOOL_USE, THINKING,
        /** Whole Anthropic answers only ({@link #anthropicCited}): a text block quoting the request's document. */
        CITED
    }

    static final String TOOL = "send_note";
    /** A signature as Anthropic writes one: base64, with the characters JSON and URLs treat specially. */
    static final String SIGNATURE = "EqQBCkYIBxgCKkDq+/Zb3nVj0kL8sQ==";

    private ToolAnswers() {
    }

    /** The tool input a model writes to pass {@code text} on: JSON source text. */
    static String input(String text) {
        return "{\"note\": " + quoted(text) + ", \"copies\": 2}";
    }

    /**
     * The whole Anthropic content array for {@code reply} around {@code text}. A thinking reply is the turn of a
     * tool-use loop: signed thinking, then text, then the tool call, each holding the text.
     */
    static String anthropicContent(Reply reply, String text) {
        // every shape but text ends the turn in a tool call
        String toolUse = "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"" + TOOL + "\",\"input\":"
                + input(text) + "}";
        String plain = "{\"type\":\"text\",\"text\":" + quoted(text) + "}";
        return switch (reply) {
            case TOOL_USE -> "[" + toolUse + "]";
            case THINKING -> "[{\"type\":\"thinking\",\"thinking\":" + quoted(text) + ",\"signature\":\"" + SIGNATURE
                    + "\"}," + plain + "," + toolUse + "]";
            case TEXT -> "[" + plain + "]";
            case CITED -> throw new IllegalArgumentException("a cited answer quotes the request: anthropicCited");
        };
    }

    /**
     * The whole Anthropic content array of a cited answer, as the API writes one for a plain-text document: one text
     * block whose one {@code char_location} citation quotes the first document of {@code request} whole, with its
     * title, indexes over the text the backend was sent.
     */
    static String anthropicCited(JsonNode request) {
        JsonNode document = null;
        for (JsonNode message : request.path("messages")) {
            for (JsonNode block : message.path("content")) {
                if (document == null && block.path("type").asText().equals("document")) {
                    document = block;
                }
            }
        }
        if (document == null) {
            throw new IllegalArgumentException("a cited answer needs a document in the request");
        }
        String text = document.path("source").path("data").asText();
        return "[{\"type\":\"text\",\"text\":" + quoted(text) + ",\"citations\":[{\"type\":\"char_location\","
                + "\"cited_text\":" + quoted(text) + ",\"document_index\":0,\"document_title\":"
                + quoted(document.path("title").asText()) + ",\"start_char_index\":0,\"end_char_index\":"
                + text.length() + "}]}]";
    }

    /** One streamed Anthropic content block: its {@code content_block_start}'s block and its deltas, in order. */
    record StreamedBlock(String start, List<String> deltas) {
    }

    /**
     * The streamed blocks for {@code reply} around {@code text}, as {@link #anthropicContent} has them; each block's
     * source (the text, or the tool input's JSON) goes in the pieces {@code pieces} cuts it into.
     */
    static List<StreamedBlock> anthropicBlocks(Reply reply, String text, Function<String, List<String>> pieces) {
        StreamedBlock toolUse = new StreamedBlock("{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"" + TOOL
                + "\",\"input\":{}}", deltas("input_json_delta", "partial_json", pieces.apply(input(text))));
        StreamedBlock plain = new StreamedBlock("{\"type\":\"text\",\"text\":\"\"}",
                deltas("text_delta", "text", pieces.apply(text)));
        return switch (reply) {
            case TOOL_USE -> List.of(toolUse);
            case THINKING -> {
                List<String> thinking = new ArrayList<>(deltas("thinking_delta", "thinking", pieces.apply(text)));
                thinking.add("{\"type\":\"signature_delta\",\"signature\":\"" + SIGNATURE + "\"}");
                yield List.of(new StreamedBlock("{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}",
                        thinking), plain, toolUse);
            }
            case TEXT -> List.of(plain);
            case CITED -> throw new IllegalArgumentException("the doubles answer a cited text whole only");
        };
    }

    private static List<String> deltas(String type, String field, List<String> pieces) {
        return pieces.stream().map(p -> "{\"type\":\"" + type + "\",\"" + field + "\":" + quoted(p) + "}").toList();
    }

    /** The streamed source of a Chat Completions answer: the text itself, or the tool call's arguments. */
    static String streamed(Reply reply, String text) {
        return reply == Reply.TOOL_USE ? input(text) : text;
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
