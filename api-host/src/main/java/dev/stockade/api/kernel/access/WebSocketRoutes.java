package dev.stockade.api.kernel.access;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The authorization table's WebSocket rows: the router matches WebSocket handshakes apart from HTTP routes, so the
 * access filter finds their action here, by path. A handshake to a WebSocket path not listed here reaches no
 * {@code @ServerWebSocket} that trusts it: every WebSocket endpoint reads the grant the filter set, and closes
 * without one.
 */
final class WebSocketRoutes {
    /** A matched handshake: its action and path variables. */
    record Match(Action action, Map<String, Object> variables) {
    }

    private record Row(Pattern path, Action action, List<String> names) {
    }

    private static final List<Row> ROWS = List.of(
            new Row(Pattern.compile("/v1/projects/([^/]+)/sandboxes/([^/]+)/exec"), Action.SANDBOX_EXEC,
                    List.of("projectId", "sandboxId")),
            // realtime voice (inference.RealtimeSockets): the backend and its path are the socket's to judge
            new Row(Pattern.compile("/v1/projects/([^/]+)/llm/.+"), Action.LLM_CALL, List.of("projectId")),
            new Row(Pattern.compile("/v1/llm/.+"), Action.LLM_CALL_UNSCOPED, List.of()));

    private WebSocketRoutes() {
    }

    static Optional<Match> match(HttpRequest<?> request) {
        String upgrade = request.getHeaders().get(HttpHeaders.UPGRADE);
        if (upgrade == null || !upgrade.equalsIgnoreCase("websocket")) {
            return Optional.empty();
        }
        for (Row row : ROWS) {
            Matcher m = row.path().matcher(request.getPath());
            if (m.matches()) {
                Map<String, Object> vars = new java.util.HashMap<>();
                for (int i = 0; i < row.names().size(); i++) {
                    vars.put(row.names().get(i), m.group(i + 1));
                }
                return Optional.of(new Match(row.action(), vars));
            }
        }
        return Optional.empty();
    }
}
