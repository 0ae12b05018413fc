package dev.stockade.runtime.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
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

    /** The body as a JSON object, or a 400 problem when it is not one. */
    public JsonNode jsonObject() {
        JsonNode n;
        try {
            n = JSON.readTree(body);
        } catch (IOException e) {
            throw new HttpProblem(400, "invalid-json", "the body is not valid JSON");
        }
        if (n == null || !n.isObject()) {
            throw new HttpProblem(400, "not-an-object", "the body must be a JSON object");
        }
        return n;
    }
}
