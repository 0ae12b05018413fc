package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.DataInput;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * The platform's JSON parsers: every parser the application's {@code ObjectMapper} opens (request bodies bound to
 * records, {@code JsonNode} and {@code Map} bodies alike) refuses a key given twice in one object and any key or
 * string {@link StorableText} refuses, naming the JSON pointer of the value in the body as sent. Checking tokens, not
 * bound fields, covers every route and every nesting level at once.
 */
final class StrictJsonFactory extends JsonFactory {
    private static final long serialVersionUID = 1L;

    StrictJsonFactory(JsonFactory source) {
        super(source, source.getCodec());
    }

    @Override
    public JsonFactory copy() {
        return new StrictJsonFactory(this);
    }

    @Override
    protected JsonParser _createParser(InputStream in, IOContext ctxt) throws IOException {
        return new Checked(super._createParser(in, ctxt));
    }

    @Override
    protected JsonParser _createParser(Reader r, IOContext ctxt) throws IOException {
        return new Checked(super._createParser(r, ctxt));
    }

    @Override
    protected JsonParser _createParser(char[] data, int offset, int len, IOContext ctxt, boolean recyclable)
            throws IOException {
        return new Checked(super._createParser(data, offset, len, ctxt, recyclable));
    }

    @Override
    protected JsonParser _createParser(byte[] data, int offset, int len, IOContext ctxt) throws IOException {
        return new Checked(super._createParser(data, offset, len, ctxt));
    }

    @Override
    protected JsonParser _createParser(DataInput input, IOContext ctxt) throws IOException {
        return new Checked(super._createParser(input, ctxt));
    }

    /**
     * Checks each token as it is read. Every way of advancing goes through {@link #nextToken()} (the delegate's own
     * shortcuts would skip the check), including {@link #skipChildren()}.
     */
    private static final class Checked extends JsonParserDelegate {
        private final Deque<Set<String>> keys = new ArrayDeque<>();
        private int depth;
        private boolean valueRead;

        Checked(JsonParser d) {
            super(d);
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken t = delegate.nextToken();
            if (t == null) {
                return null;
            }
            if (valueRead) {
                // a body is one value: `{}{}` would otherwise be read as its first half
                throw new JsonParseException(this, "text after the JSON value");
            }
            depth += t.isStructStart() ? 1 : t.isStructEnd() ? -1 : 0;
            valueRead = depth == 0 && t != JsonToken.FIELD_NAME;
            switch (t) {
                case START_OBJECT -> keys.push(new HashSet<>());
                case END_OBJECT -> keys.pop();
                case FIELD_NAME -> key(delegate.currentName());
                case VALUE_STRING -> text(delegate.getText(), "value");
                default -> {
                }
            }
            return t;
        }

        private void key(String name) throws IOException {
            String pointer = delegate.getParsingContext().pathAsPointer().toString();
            text(name, "key");
            if (!keys.isEmpty() && !keys.peek().add(name)) {
                throw new RefusedValue(this, pointer, "duplicate-key",
                        "the key `" + Text.clip(StorableText.printable(name)) + "` is given twice in one object");
            }
        }

        private void text(String s, String what) throws IOException {
            String why = StorableText.flaw(s);
            if (why != null) {
                String pointer = delegate.getParsingContext().pathAsPointer().toString();
                String at = pointer.isEmpty() ? "the body" : "`" + Text.clip(StorableText.printable(pointer)) + "`";
                throw new RefusedValue(this, pointer, "unstorable-text", "the " + what + " at " + at + " " + why);
            }
        }

        @Override
        public JsonToken nextValue() throws IOException {
            JsonToken t = nextToken();
            return t == JsonToken.FIELD_NAME ? nextToken() : t;
        }

        @Override
        public String nextFieldName() throws IOException {
            return nextToken() == JsonToken.FIELD_NAME ? currentName() : null;
        }

        @Override
        public boolean nextFieldName(SerializableString name) throws IOException {
            return nextToken() == JsonToken.FIELD_NAME && name.getValue().equals(currentName());
        }

        @Override
        public String nextTextValue() throws IOException {
            return nextToken() == JsonToken.VALUE_STRING ? getText() : null;
        }

        @Override
        public JsonParser skipChildren() throws IOException {
            JsonToken t = currentToken();
            if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
                return this;
            }
            int open = 1;
            while (open > 0) {
                JsonToken n = nextToken();
                if (n == null) {
                    return this;
                }
                if (n.isStructStart()) {
                    open++;
                } else if (n.isStructEnd()) {
                    open--;
                }
            }
            return this;
        }
    }
}
