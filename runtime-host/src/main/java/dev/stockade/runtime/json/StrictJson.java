package dev.stockade.runtime.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.json.MalformedJson.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * The runtime's one JSON reader, for request bodies and for JSON it stored itself: strict UTF-8 (the byte
 * offset of the first bad byte is reported), exactly one value (text after it is refused), no duplicate keys,
 * no escaped lone surrogates. Lenient parsing would let {@code {}{}} or a key given twice mean something
 * other than what the sender's tools showed them.
 */
public final class StrictJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final int MAX_QUOTED = 64;

    private StrictJson() {
    }

    /** Reads {@code utf8} as exactly one JSON object. */
    public static ObjectNode object(byte[] utf8) throws MalformedJson {
        return asObject(read(utf8));
    }

    /** Reads {@code text} (JSON this runtime stored) as exactly one JSON object. */
    public static ObjectNode object(String text) throws MalformedJson {
        return asObject(parse(text));
    }

    /** Reads {@code utf8} as exactly one JSON value of any kind. */
    public static JsonNode read(byte[] utf8) throws MalformedJson {
        return parse(decode(utf8));
    }

    private static ObjectNode asObject(JsonNode n) throws MalformedJson {
        if (!(n instanceof ObjectNode o)) {
            throw new MalformedJson(Reason.NOT_AN_OBJECT, "must be a JSON object, not " + kind(n));
        }
        return o;
    }

    /** Strict UTF-8: a malformed or unmappable sequence is refused with its byte offset. */
    private static String decode(byte[] bytes) throws MalformedJson {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = d.decode(in, out, true);
        if (r.isError()) {
            throw new MalformedJson(Reason.INVALID_UNICODE, "is not valid UTF-8 at byte offset " + in.position());
        }
        try {
            r = d.flush(out);
            if (r.isError()) {
                r.throwException();
            }
        } catch (CharacterCodingException e) {
            throw new MalformedJson(Reason.INVALID_UNICODE, "ends inside a UTF-8 sequence");
        }
        return out.flip().toString();
    }

    private static JsonNode parse(String text) throws MalformedJson {
        if (text.isBlank()) {
            throw new MalformedJson(Reason.EMPTY, "is empty; a JSON value is required");
        }
        try (JsonParser p = MAPPER.createParser(text)) {
            JsonNode n = readOne(p);
            trailing(p);
            surrogates(n);
            return n;
        } catch (MalformedJson e) {
            throw e;
        } catch (IOException e) {
            throw new MalformedJson(Reason.INVALID_JSON, "could not be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static JsonNode readOne(JsonParser p) throws IOException {
        try {
            return MAPPER.readTree(p);
        } catch (StreamConstraintsException e) {
            throw new MalformedJson(Reason.INVALID_JSON, "exceeds the reader's limits (nesting depth, number "
                    + "or string length)" + at(e.getLocation()));
        } catch (JsonParseException e) {
            String m = e.getOriginalMessage();
            if (m != null && m.startsWith("Duplicate field")) {
                throw new MalformedJson(Reason.DUPLICATE_KEY, "names the key `" + clip(p.currentName())
                        + "` twice in one object (at " + clip(p.getParsingContext().pathAsPointer().toString()) + ")");
            }
            throw new MalformedJson(Reason.INVALID_JSON, "is not valid JSON" + at(e.getLocation()));
        } catch (JsonProcessingException e) {
            throw new MalformedJson(Reason.INVALID_JSON, "is not valid JSON" + at(e.getLocation()));
        }
    }

    /** After the one value only whitespace may follow (Jackson's readTree(JsonParser) stops at the value). */
    private static void trailing(JsonParser p) throws MalformedJson {
        JsonLocation where;
        try {
            if (p.nextToken() == null) {
                return;
            }
            where = p.currentTokenLocation();
        } catch (JsonProcessingException e) {
            where = e.getLocation();
        } catch (IOException e) {
            where = null;
        }
        throw new MalformedJson(Reason.TRAILING_CONTENT, "has text after the JSON value" + at(where));
    }

    /** Escaped lone surrogates decode to text that cannot be stored as UTF-8; refuse them, never alter them. */
    private static void surrogates(JsonNode root) throws MalformedJson {
        Deque<JsonNode> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            JsonNode n = todo.pop();
            if (n.isTextual() && !wellFormed(n.textValue())) {
                throw new MalformedJson(Reason.INVALID_UNICODE, "has a string with an escaped lone surrogate");
            }
            if (n.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!wellFormed(e.getKey())) {
                        throw new MalformedJson(Reason.INVALID_UNICODE, "has a key with an escaped lone surrogate");
                    }
                    todo.push(e.getValue());
                }
            } else if (n.isArray()) {
                n.forEach(todo::push);
            }
        }
    }

    private static boolean wellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private static String at(JsonLocation l) {
        return l == null || l.getLineNr() < 1 ? "" : " at line " + l.getLineNr() + ", column " + l.getColumnNr();
    }

    private static String kind(JsonNode n) {
        return n.isArray() ? "an array" : n.isTextual() ? "a string" : n.isNumber() ? "a number"
                : n.isBoolean() ? "a boolean" : n.isNull() ? "null" : "a " + n.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** User text quoted in a detail: printable ASCII only, at most {@value #MAX_QUOTED} characters. */
    static String clip(String s) {
        if (s == null) {
            return "";
        }
        String t = s.replaceAll("[^\\x20-\\x7E]", "?").replace('`', '?');
        return t.length() <= MAX_QUOTED ? t : t.substring(0, MAX_QUOTED) + "… (" + s.length() + " characters)";
    }
}
