package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** What the provider doubles share when they echo a prompt: its text, its stream pieces, its JSON spelling. */
final class EchoText {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EchoText() {
    }

    /** The text of the last message: a string, or the concatenated {@code text} of its content parts. */
    static String lastMessage(JsonNode messages) {
        JsonNode content = messages.path(messages.size() - 1).path("content");
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        content.forEach(part -> text.append(part.path("text").asText()));
        return text.toString();
    }

    /** {@code text} in pieces of five characters, as a model streams tokens: a placeholder is split across events. */
    static List<String> fives(String text) {
        List<String> pieces = new ArrayList<>();
        for (int i = 0; i < text.length(); i += 5) {
            pieces.add(text.substring(i, Math.min(text.length(), i + 5)));
        }
        return pieces.isEmpty() ? List.of("") : pieces;
    }

    /** {@code text} as a JSON string, escaped as the providers' servers escape it. */
    static String quoted(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
