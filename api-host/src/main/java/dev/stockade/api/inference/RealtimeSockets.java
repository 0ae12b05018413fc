package dev.stockade.api.inference;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import io.micronaut.http.HttpRequest;
import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnClose;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.OnOpen;
import io.micronaut.websocket.annotation.ServerWebSocket;

/**
 * The realtime voice sockets, with and without the project in the path. The access filter authorized the
 * handshake and {@link RealtimeGate} admitted it; a session that reaches here without the gate's admission closes.
 */
final class RealtimeSockets {
    private RealtimeSockets() {
    }

    /** {@code /v1/projects/{projectId}/llm/<backend>/v1/realtime} and {@code .../v1/live/sessions}. */
    @ServerWebSocket("/v1/projects/{projectId}/llm/{path:.+}")
    record Scoped(RealtimeRelay relay) {
        @OnOpen
        @Access(Action.LLM_CALL)
        public void open(WebSocketSession session, HttpRequest<?> request) {
            RealtimeSockets.open(relay, session, request);
        }

        @OnMessage(maxPayloadLength = RealtimeRelay.MAX_FRAME)
        public void message(String frame, WebSocketSession session) {
            session.get(RealtimeSession.class.getName(), RealtimeSession.class).ifPresent(s -> s.fromClient(frame));
        }

        @OnClose
        public void close(WebSocketSession session) {
            RealtimeSockets.close(session);
        }
    }

    /** {@code /v1/llm/<backend>/v1/realtime}: a caller with exactly one project. */
    @ServerWebSocket("/v1/llm/{path:.+}")
    record Unscoped(RealtimeRelay relay) {
        @OnOpen
        @Access(Action.LLM_CALL_UNSCOPED)
        public void open(WebSocketSession session, HttpRequest<?> request) {
            RealtimeSockets.open(relay, session, request);
        }

        @OnMessage(maxPayloadLength = RealtimeRelay.MAX_FRAME)
        public void message(String frame, WebSocketSession session) {
            session.get(RealtimeSession.class.getName(), RealtimeSession.class).ifPresent(s -> s.fromClient(frame));
        }

        @OnClose
        public void close(WebSocketSession session) {
            RealtimeSockets.close(session);
        }
    }

    private static void open(RealtimeRelay relay, WebSocketSession session, HttpRequest<?> request) {
        RealtimeRelay.Admitted admitted = request.getAttribute(RealtimeGate.ADMITTED, RealtimeRelay.Admitted.class)
                .orElse(null);
        if (admitted == null) {
            session.close(new CloseReason(CloseReason.POLICY_VIOLATION.getCode(), "not admitted"));
            return;
        }
        relay.open(admitted, session);
    }

    private static void close(WebSocketSession session) {
        session.get(RealtimeSession.class.getName(), RealtimeSession.class).ifPresent(RealtimeSession::clientClosed);
    }
}
