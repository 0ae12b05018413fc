package dev.stockade.pii;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.stockade.pii.internal.PlaceholderSyntax;
import dev.stockade.pii.internal.SignedReasoning;
import java.io.IOException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns the placeholders one request created back into the values they stand for, in a whole answer or in a
 * stream. A placeholder this request did not create (another request's, or one a model made up) is left as it
 * is. A value goes back in the {@link TextForm} of the text around it: JSON source text gets it JSON-escaped.
 * Immutable and thread-safe; the streaming restorers it makes are not.
 */
public final class Restorer {

    /** Restores nothing: the restorer of a request masked with {@code unmaskResponses} off. */
    public static final Restorer NONE = new Restorer(Map.of());

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The JSON field that holds a tool call's arguments as JSON text inside a string (OpenAI's wire formats). */
    private static final String ARGUMENTS = "arguments";

    private final Map<String, String> originals;

    Restorer(Map<String, String> originals) {
        this.originals = Map.copyOf(originals);
    }

    /** {@code text} with this request's placeholders restored. */
    public String restore(String text) {
        return restore(text, TextForm.PLAIN);
    }

    /** {@code text}, written in {@code form}, with this request's placeholders restored. */
    public String restore(String text, TextForm form) {
        if (originals.isEmpty() || text.indexOf('[') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            int len = PlaceholderSyntax.match(text, i);
            if (len > 0) {
                out.append(lookup(text.substring(i, i + len), form));
                i += len;
            } else {
                out.append(text.charAt(i++));
            }
        }
        return out.toString();
    }

    /**
     * A non-streamed JSON answer in {@code format} with placeholders restored in every string value (keys
     * untouched), so a restored value with quotes or backslashes stays valid JSON. An {@code arguments} string that
     * holds a JSON object or array (a tool call's arguments, as the masker read them) is restored as JSON source
     * text, so it stays valid JSON too. Signed reasoning ({@link SignedReasoning}) is left as the backend wrote it,
     * placeholders included: a client sends it back, and it must hold neither a broken signature nor the values.
     *
     * @throws MaskingException {@code INVALID_BODY} if the answer is not JSON
     */
    public byte[] restoreJson(byte[] body, WireFormat format) throws MaskingException {
        return restoreJson(body, EnumSet.of(format));
    }

    private byte[] restoreJson(byte[] body, Set<WireFormat> formats) throws MaskingException {
        if (originals.isEmpty()) {
            return body;
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            root = null;
        }
        if (root == null || root.isMissingNode()) {
            throw new MaskingException(MaskingException.Kind.INVALID_BODY, "answer body is not valid JSON");
        }
        Set<JsonNode> signed = Collections.newSetFromMap(new IdentityHashMap<>());
        for (WireFormat format : formats) {
            signed.addAll(SignedReasoning.inAnswer(root, format));
        }
        try {
            return JSON.writeValueAsBytes(restoreNode(root, signed));
        } catch (IOException e) {
            throw new MaskingException(MaskingException.Kind.INTERNAL, "a restored answer could not be written", e);
        }
    }

    private JsonNode restoreNode(JsonNode node, Set<JsonNode> signed) {
        if (signed.contains(node)) {
            return node;
        }
        if (node.isTextual()) {
            return TextNode.valueOf(restore(node.textValue()));
        }
        if (node instanceof ObjectNode o) {
            o.properties().forEach(e -> e.setValue(e.getKey().equals(ARGUMENTS) && holdsJson(e.getValue())
                    ? TextNode.valueOf(restore(e.getValue().textValue(), TextForm.JSON))
                    : restoreNode(e.getValue(), signed)));
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                a.set(i, restoreNode(a.get(i), signed));
            }
        }
        return node;
    }

    /** A string whose text is a JSON object or array: the masker masked its string values, not its text. */
    private static boolean holdsJson(JsonNode value) {
        if (!value.isTextual() || value.textValue().indexOf('[') < 0) {
            return false;
        }
        try {
            return JSON.readTree(value.textValue()).isContainerNode();
        } catch (IOException notJson) {
            return false;
        }
    }

    /** A restorer for a text stream (for example the text deltas of server-sent events). */
    public StreamRestorer stream() {
        return stream(TextForm.PLAIN);
    }

    /** A restorer for a stream of text written in {@code form} (JSON: the fragments of a tool call's input). */
    public StreamRestorer stream(TextForm form) {
        return new StreamRestorer(this, form);
    }

    /** A restorer for a UTF-8 byte stream, tolerating chunks that split characters as well as placeholders. */
    public ByteStreamRestorer byteStream() {
        return new ByteStreamRestorer(stream());
    }

    Map<String, String> originals() {
        return originals;
    }

    /** The value {@code placeholder} stands for, written in {@code form}; another request's placeholder as it is. */
    String lookup(String placeholder, TextForm form) {
        String value = originals.get(placeholder);
        if (value == null) {
            return placeholder; // its characters need no escaping in any form
        }
        return form == TextForm.JSON ? new String(JsonStringEncoder.getInstance().quoteAsString(value)) : value;
    }
}
