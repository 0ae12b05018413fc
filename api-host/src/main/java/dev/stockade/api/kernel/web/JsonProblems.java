package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.util.List;

/**
 * Maps Jackson's reading failures to problems, without echoing the offending input: a body that is not one
 * well-formed JSON value is {@code malformed_json} with its line and column; a well-formed body with a value the
 * platform refuses is {@code validation_failed} with the value's JSON pointer.
 */
final class JsonProblems {
    private JsonProblems() {
    }

    static ApiProblem of(JsonProcessingException e) {
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof RefusedValue refused) {
                return field(refused.error());
            }
            if (t instanceof InputCoercionException range && range.getProcessor() != null) {
                String pointer = range.getProcessor().getParsingContext().pathAsPointer().toString();
                return field(new FieldError(StorableText.printable(pointer), "out-of-range",
                        "`" + Text.clip(StorableText.printable(pointer)) + "` is out of range for its type"));
            }
            if (t instanceof StreamConstraintsException) {
                return new ApiProblem(ProblemCode.MALFORMED_JSON, "the body exceeds the reader's limits (nesting depth,"
                        + " number or string length)" + where(e));
            }
        }
        if (!(e instanceof JsonMappingException mapping) || mapping.getPath().isEmpty()
                && !(mapping instanceof MismatchedInputException)) {
            return new ApiProblem(ProblemCode.MALFORMED_JSON, "the body is not one well-formed JSON value" + where(e));
        }
        String pointer = pointer(mapping);
        String code;
        String detail;
        if (mapping instanceof UnrecognizedPropertyException unknown) {
            code = "unknown-field";
            detail = "unknown field `" + Text.clip(StorableText.printable(unknown.getPropertyName())) + "`";
        } else if (mapping instanceof InvalidFormatException || mapping instanceof MismatchedInputException) {
            code = "wrong-type";
            detail = "`" + Text.clip(pointer) + "` has the wrong type";
        } else {
            code = "invalid";
            detail = "`" + Text.clip(pointer) + "` is invalid";
        }
        return field(new FieldError(pointer, code, detail));
    }

    private static ApiProblem field(FieldError error) {
        return new ApiProblem(ProblemCode.VALIDATION_FAILED, error.detail(), List.of(error));
    }

    private static String where(JsonProcessingException e) {
        var loc = e.getLocation();
        return loc == null || loc.getLineNr() < 1 ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    private static String pointer(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            b.append('/');
            if (ref.getFieldName() != null) {
                b.append(StorableText.escape(ref.getFieldName()));
            } else {
                b.append(ref.getIndex());
            }
        }
        return StorableText.printable(b.toString());
    }
}
