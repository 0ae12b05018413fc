package dev.stockade.cli.testing;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.RequestTarget;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds the request a case describes, as the egress proxy would see it after interception: host,
 * port and scheme from the URL (read by the core's {@link RequestTarget#parseUrl}, the proxy's rules), the path without its query, a GraphQL payload as a JSON POST body
 * (or as query parameters on GET).
 */
public final class RequestFactory {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestFactory() {
    }

    /** The request of a case's {@code request} mapping; bad input is an {@link IllegalArgumentException}. */
    public static EgressRequest from(JsonNode request) {
        return from(request, null);
    }

    /**
     * The request of {@code request}, with GraphQL variables given as raw JSON text ({@code policy eval
     * --graphql-variables}): the text goes into the body (or the {@code variables} parameter) unchanged, so
     * that the engine judges exactly what a client would send, duplicate keys and all.
     */
    public static EgressRequest from(JsonNode request, String rawVariables) {
        JsonNode graphql = request.path("graphql");
        String defaultMethod = graphql.isMissingNode() ? "GET" : "POST";
        String method = request.path("method").asText(defaultMethod);
        Map<String, List<String>> headers = headers(request.path("headers"));
        RequestTarget uri = parse(request.path("url").asText());
        String query = uri instanceof RequestTarget.Absolute a ? a.query() : ((RequestTarget.BadHost) uri).query();
        byte[] body = request.has("body") ? request.get("body").asText().getBytes(StandardCharsets.UTF_8) : null;
        if (!graphql.isMissingNode()) {
            if (method.equals("GET")) {
                query = join(query, graphqlParameters(graphql, rawVariables));
            } else {
                body = graphqlBody(graphql, rawVariables);
                headers.putIfAbsent("content-type", List.of("application/json"));
            }
        }
        return build(uri, request.path("caller").asText(null), method, query, headers, body);
    }

    /** A request for {@code url} with the given method, caller and headers (names in any case). */
    public static EgressRequest of(String url, String method, String caller, Map<String, String> headers, byte[] body) {
        Map<String, List<String>> lower = new LinkedHashMap<>();
        headers.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), List.of(v)));
        RequestTarget uri = parse(url);
        String query = uri instanceof RequestTarget.Absolute a ? a.query() : ((RequestTarget.BadHost) uri).query();
        return build(uri, caller, method, query, lower, body);
    }

    private static EgressRequest build(RequestTarget uri, String caller, String method, String query,
            Map<String, List<String>> headers, byte[] body) {
        if (uri instanceof RequestTarget.BadHost b) {
            // a host the grammar refuses: decided as written, so the program denies it as the proxy does
            return new RequestTarget.BadHost(b.scheme(), b.hostText(), b.port(), b.path(), query, b.why())
                    .request(method, caller, headers, body);
        }
        RequestTarget.Absolute a = (RequestTarget.Absolute) uri;
        return new RequestTarget.Absolute(a.scheme(), a.host(), a.port(), a.path(), query)
                .request(method, caller, headers, body);
    }

    /**
     * The URL through the core's one adapter ({@link RequestTarget#parseUrl}), as the proxy reads
     * targets: an {@link RequestTarget.Absolute} or a {@link RequestTarget.BadHost}.
     */
    private static RequestTarget parse(String url) {
        RequestTarget t = RequestTarget.parseUrl(url);
        if (t instanceof RequestTarget.Refused r) {
            throw new IllegalArgumentException("url " + Quoted.input(url) + " is not a URL Stockade decides: " + r.why());
        }
        return t;
    }

    private static Map<String, List<String>> headers(JsonNode node) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), List.of(e.getValue().asText())));
        return headers;
    }

    private static byte[] graphqlBody(JsonNode graphql, String rawVariables) {
        ObjectNode payload = JSON.createObjectNode();
        payload.set("query", graphql.get("query"));
        if (graphql.has("operationName")) {
            payload.set("operationName", graphql.get("operationName"));
        }
        if (graphql.has("variables")) {
            payload.set("variables", graphql.get("variables"));
        }
        try {
            String json = JSON.writeValueAsString(payload);
            if (rawVariables != null) {
                json = json.substring(0, json.length() - 1) + ",\"variables\":" + rawVariables + "}";
            }
            return json.getBytes(StandardCharsets.UTF_8);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("cannot encode the graphql payload: " + e.getOriginalMessage());
        }
    }

    private static String graphqlParameters(JsonNode graphql, String rawVariables) {
        StringBuilder out = new StringBuilder("query=").append(encode(graphql.get("query").asText()));
        if (graphql.hasNonNull("operationName")) {
            out.append("&operationName=").append(encode(graphql.get("operationName").asText()));
        }
        if (rawVariables != null) {
            out.append("&variables=").append(encode(rawVariables));
        } else if (graphql.hasNonNull("variables")) {
            out.append("&variables=").append(encode(graphql.get("variables").toString()));
        }
        return out.toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String join(String query, String extra) {
        return query == null || query.isEmpty() ? extra : query + "&" + extra;
    }
}
