package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;

/**
 * A value in a well-formed JSON body that the body reader refuses (a key given twice, text the platform cannot store,
 * a time outside the storable range), with the JSON pointer of where it stands in the body as sent. It extends
 * Jackson's parse exception so that it leaves any deserializer unchanged; {@link JsonProblems} answers it as
 * {@code validation_failed}.
 */
final class RefusedValue extends JsonParseException {
    private static final long serialVersionUID = 1L;

    private final transient FieldError error;

    RefusedValue(JsonParser parser, String pointer, String code, String detail) {
        super(parser, detail);
        this.error = new FieldError(StorableText.printable(pointer), code, detail);
    }

    FieldError error() {
        return error;
    }
}
