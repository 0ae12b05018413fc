package dev.stockade.api.kernel.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.web.ApiProblem;
import java.util.UUID;

/** Reads a tool's arguments with the REST API's errors (a missing or mistyped argument is a validation problem). */
public final class ToolArgs {
    private ToolArgs() {
    }

    public static String text(JsonNode args, String name) {
        JsonNode v = args.get(name);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw ApiProblem.invalid("/" + name, "required", "`" + name + "` (a string) is required");
        }
        return v.asText();
    }

    public static UUID uuid(JsonNode args, String name) {
        return Authorizer.uuid(name, text(args, name));
    }

    public static boolean bool(JsonNode args, String name) {
        JsonNode v = args.get(name);
        if (v == null || !v.isBoolean()) {
            throw ApiProblem.invalid("/" + name, "required", "`" + name + "` (true or false) is required");
        }
        return v.asBoolean();
    }

    /** An object argument as JSON text (a policy, a sandbox), for the services that read request bodies. */
    public static String object(JsonNode args, String name) {
        JsonNode v = args.get(name);
        if (v == null || !v.isObject()) {
            throw ApiProblem.invalid("/" + name, "required", "`" + name + "` (an object) is required");
        }
        return v.toString();
    }
}
