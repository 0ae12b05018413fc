package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import java.io.IOException;
import java.io.Serializable;

/**
 * Wraps the deserializers a rule selects in a check: how the body reader refuses, with its pointer, what Jackson alone
 * would accept (a time the database cannot store, a scalar where a record goes). Each rule is one instance of this
 * modifier, not another pair of Jackson subclasses.
 */
final class CheckedDeserializers extends BeanDeserializerModifier {
    private static final long serialVersionUID = 1L;

    /** Which deserializers the check wraps. */
    @FunctionalInterface
    interface Selection extends Serializable {
        boolean wraps(BeanDescription description, JsonDeserializer<?> deserializer);
    }

    /** Reads a value through {@code delegate}, or refuses it. */
    @FunctionalInterface
    interface Check extends Serializable {
        Object read(JsonDeserializer<?> delegate, JsonParser p, DeserializationContext ctxt) throws IOException;
    }

    private final Selection selection;
    private final Check check;

    CheckedDeserializers(Selection selection, Check check) {
        this.selection = selection;
        this.check = check;
    }

    @Override
    public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription description,
                                                  JsonDeserializer<?> deserializer) {
        return selection.wraps(description, deserializer) ? new Checked(deserializer, check) : deserializer;
    }

    private static final class Checked extends DelegatingDeserializer {
        private static final long serialVersionUID = 1L;
        private final Check check;

        Checked(JsonDeserializer<?> delegate, Check check) {
            super(delegate);
            this.check = check;
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new Checked(delegate, check);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            return check.read(_delegatee, p, ctxt);
        }
    }
}
