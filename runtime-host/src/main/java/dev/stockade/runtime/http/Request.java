package dev.stockade.runtime.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.json.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One HTTP request as the handlers see it: method, path, path parameters, case-insensitive headers
 * and the whole body (bounded by the server).
 */
public record Request(String method, String path, Map<String, String> params, Map<String, String> headers,
        byte[] body) {
    /** The shared mapper for request and response bodies. */
    public static final ObjectMapper JSON = new ObjectMapper();

    /** A header's value, matched case-insensitively, or {@code null}. */
    public String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    public String param(String name) {
        return params.get(name);
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /**
     * The body as exactly one JSON object, read by the runtime's one strict reader; a 400 problem naming
     * what is wrong (and where) otherwise.
     */
    public ObjectNode jsonObject() {
        try {
            return StrictJson.object(body);
        } catch (MalformedJson e) {
            throw new HttpProblem(400, e.reason().slug(), "the body " + e.getMessage());
        }
    }
}
