package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.util.List;

/** Maps Jackson's reading failures to problems with a JSON pointer, without echoing the offending input. */
final class JsonProblems {
    private JsonProblems() {
    }

    static ApiProblem of(JsonProcessingException e) {
        if (e instanceof JsonParseException || !(e instanceof JsonMappingException mapping)) {
            var loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            String why = e.getOriginalMessage() != null && e.getOriginalMessage().contains("UTF-8")
                    ? "the body is not valid UTF-8" : "the body is not well-formed JSON";
            return new ApiProblem(ProblemCode.MALFORMED_JSON, why + where);
        }
        String pointer = pointer(mapping);
        String code;
        String detail;
        if (mapping instanceof UnrecognizedPropertyException unknown) {
            code = "unknown-field";
            detail = "unknown field `" + Text.clip(unknown.getPropertyName()) + "`";
        } else if (mapping instanceof InvalidFormatException || mapping instanceof MismatchedInputException) {
            code = "wrong-type";
            detail = "`" + pointer + "` has the wrong type";
        } else {
            code = "invalid";
            detail = "`" + pointer + "` is invalid";
        }
        return new ApiProblem(ProblemCode.VALIDATION_FAILED, detail, List.of(new FieldError(pointer, code, detail)));
    }

    private static String pointer(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            b.append('/');
            if (ref.getFieldName() != null) {
                b.append(ref.getFieldName().replace("~", "~0").replace("/", "~1"));
            } else {
                b.append(ref.getIndex());
            }
        }
        return b.toString();
    }
}
