package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import java.io.IOException;
import java.util.Set;

/** The JSON object of an impact or suggest request: not JSON, not an object, or a field it does not know is a 400. */
final class BodyObject {
    private BodyObject() {
    }

    static JsonNode read(ObjectMapper json, String body, Set<String> fields) {
        JsonNode root;
        try {
            root = json.readTree(body == null ? "" : body);
        } catch (IOException e) {
            throw new ApiProblem(ProblemCode.MALFORMED_JSON, "the body is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw ApiProblem.invalid("", "type", "the body must be a JSON object");
        }
        root.fieldNames().forEachRemaining(f -> {
            if (!fields.contains(f)) {
                throw ApiProblem.invalid("/" + f, "unknown-field", "unknown field `" + f + "`");
            }
        });
        return root;
    }
}
