package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.connectors.UpstreamClient.UpstreamException;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A call to an HTTP connector's tool becomes one real HTTP request: path parameters substituted (percent-encoded, so
 * an argument cannot add a path segment), query parameters appended, declared header parameters set, the {@code body}
 * argument sent as JSON, and the connector credential's header added. The answer becomes the tool result: its body
 * as text (and as {@code structuredContent} when it is a JSON object), {@code isError} for a status of 400 or more.
 */
@Singleton
record HttpOperations(GuardedHttp http, ObjectMapper json) {
    public JsonNode call(Connector connector, UpstreamClient.Tool tool, JsonNode args, Map<String, String> auth,
                         Cancellation cancel) throws UpstreamException {
        JsonNode op = tool.operation();
        String path = op.path("path").asText();
        StringBuilder query = new StringBuilder();
        HttpRequest.Builder out = HttpRequest.newBuilder().timeout(http.settings().callTimeout())
                .header("Accept", "application/json, */*;q=0.5");
        Set<String> known = new HashSet<>();
        for (JsonNode p : op.path("parameters")) {
            String name = p.path("name").asText();
            known.add(name);
            JsonNode value = args.get(name);
            if (value == null || value.isNull()) {
                if (p.path("in").asText().equals("path")) {
                    throw new UpstreamClient.ArgumentException("argument `" + name + "` is required");
                }
                continue;
            }
            String text = value.isTextual() ? value.asText() : value.toString();
            switch (p.path("in").asText()) {
                case "path" -> path = path.replace("{" + name + "}", encode(text));
                case "query" -> query.append(query.length() == 0 ? "?" : "&").append(encode(name)).append('=')
                        .append(encode(text));
                case "header" -> {
                    if (text.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                        throw new UpstreamClient.ArgumentException("argument `" + name + "` has control characters");
                    }
                    out.header(name, text);
                }
                default -> throw new UpstreamException("parameter `" + name + "` is in an unsupported place");
            }
        }
        for (var names = args.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name) && !(name.equals("body") && op.path("body").asBoolean())) {
                throw new UpstreamClient.ArgumentException("unknown argument `" + UpstreamClient.clip(name) + "`");
            }
        }
        String body = op.path("body").asBoolean() && args.has("body") ? args.get("body").toString() : null;
        out.method(op.path("method").asText(), body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            out.header("Content-Type", "application/json");
        }
        auth.forEach(out::header);
        String base = connector.url().endsWith("/") ? connector.url().substring(0, connector.url().length() - 1)
                : connector.url();
        out.uri(URI.create(base + path + query));
        try (GuardedHttp.Opened answer = http.open(out.build(), cancel)) {
            byte[] bytes = answer.body().readAllBytes();
            return result(answer.status(), answer.header("content-type"), bytes);
        } catch (IOException e) {
            throw http.readFailure(e, cancel);
        }
    }

    private JsonNode result(int status, String contentType, byte[] bytes) throws UpstreamException {
        if (status >= 300 && status < 400) {
            throw new UpstreamException("the API redirected (" + status + "); redirects are not followed");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        ObjectNode r = json.createObjectNode();
        boolean error = status >= 400;
        r.putArray("content").addObject().put("type", "text").put("text", error ? "HTTP " + status + ": " + text : text);
        if (contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).contains("json")) {
            try {
                JsonNode parsed = json.readTree(bytes);
                if (parsed != null && parsed.isObject()) {
                    r.set("structuredContent", parsed);
                }
            } catch (IOException notJson) {
                // the API said JSON and sent something else: the text stands as it came
            }
        }
        r.put("isError", error);
        return r;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
