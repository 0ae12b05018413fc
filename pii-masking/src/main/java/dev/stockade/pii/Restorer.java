package dev.stockade.pii;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.stockade.pii.internal.PlaceholderSyntax;
import java.io.IOException;
import java.util.Map;

/**
 * Turns the placeholders one request created back into the values they stand for, in a whole answer or in a
 * stream. A placeholder this request did not create (another request's, or one a model made up) is left as it
 * is. Immutable and thread-safe; the streaming restorers it makes are not.
 */
public final class Restorer {

    /** Restores nothing: the restorer of a request masked with {@code unmaskResponses} off. */
    public static final Restorer NONE = new Restorer(Map.of());

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> originals;

    Restorer(Map<String, String> originals) {
        this.originals = Map.copyOf(originals);
    }

    /** {@code text} with this request's placeholders restored. */
    public String restore(String text) {
        if (originals.isEmpty() || text.indexOf('[') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            int len = PlaceholderSyntax.match(text, i);
            if (len > 0) {
                String token = text.substring(i, i + len);
                out.append(originals.getOrDefault(token, token));
                i += len;
            } else {
                out.append(text.charAt(i++));
            }
        }
        return out.toString();
    }

    /**
     * A non-streamed JSON answer with placeholders restored in every string value (keys untouched), so a
     * restored value with quotes or backslashes stays valid JSON.
     *
     * @throws MaskingException {@code INVALID_BODY} if the answer is not JSON
     */
    public byte[] restoreJson(byte[] body) throws MaskingException {
        if (originals.isEmpty()) {
            return body;
        }
        try {
            JsonNode root = JSON.readTree(body);
            return JSON.writeValueAsBytes(restoreNode(root));
        } catch (IOException e) {
            throw new MaskingException(MaskingException.Kind.INVALID_BODY, "answer body is not valid JSON");
        }
    }

    private JsonNode restoreNode(JsonNode node) {
        if (node.isTextual()) {
            return TextNode.valueOf(restore(node.textValue()));
        }
        if (node instanceof ObjectNode o) {
            o.properties().forEach(e -> e.setValue(restoreNode(e.getValue())));
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                a.set(i, restoreNode(a.get(i)));
            }
        }
        return node;
    }

    /** A restorer for a text stream (for example the text deltas of server-sent events). */
    public StreamRestorer stream() {
        return new StreamRestorer(this);
    }

    /** A restorer for a UTF-8 byte stream, tolerating chunks that split characters as well as placeholders. */
    public ByteStreamRestorer byteStream() {
        return new ByteStreamRestorer(stream());
    }

    Map<String, String> originals() {
        return originals;
    }

    String lookup(String placeholder) {
        return originals.getOrDefault(placeholder, placeholder);
    }
}
