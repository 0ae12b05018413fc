package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.FenceReason;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one client-to-server text frame of a GraphQL websocket. {@code subscribe}
 * ({@code graphql-transport-ws}) and {@code start} ({@code graphql-ws}) carry an operation and are judged
 * like a request; the protocol's housekeeping messages pass; anything else is denied.
 */
public final class Frames {

    public static final String TRANSPORT_WS = "graphql-transport-ws";
    public static final String LEGACY_WS = "graphql-ws";

    private static final Set<String> TRANSPORT_WS_PASS = Set.of("connection_init", "ping", "pong", "complete");
    private static final Set<String> LEGACY_WS_PASS = Set.of("connection_init", "stop", "connection_terminate");

    private Frames() {
    }

    /** The operations a frame carries (none for housekeeping), or the deny. */
    public static Prepared prepare(String subprotocol, String frame, ParserSetup setup) {
        try {
            return Prepared.of(List.of(operations(subprotocol, frame, setup)));
        } catch (Denied denied) {
            return denied.prepared();
        } catch (RuntimeException | StackOverflowError e) {
            return Prepared.failed(FenceReason.UNPARSEABLE, "frame could not be read");
        }
    }

    private static List<PreparedOperation> operations(String subprotocol, String frame, ParserSetup setup)
            throws Denied {
        boolean transport = TRANSPORT_WS.equals(subprotocol);
        if (!transport && !LEGACY_WS.equals(subprotocol)) {
            throw new Denied(FenceReason.WEBSOCKET_DENIED, "websocket subprotocol " + Reason.quote(String.valueOf(subprotocol)) + " is not graphql");
        }
        if (frame == null) {
            throw new Denied(FenceReason.UNPARSEABLE, "frame is empty");
        }
        // A UTF-16 char is at least one UTF-8 byte, so this bounds the bytes from below cheaply.
        if (frame.length() > setup.limits().maxBodyBytes()) {
            throw new Denied(FenceReason.LIMIT, "frame exceeds the inspection limit of "
                    + setup.limits().maxBodyBytes() + " bytes");
        }
        Val message;
        try {
            message = setup.json().read(frame);
        } catch (JsonValues.JsonProblem e) {
            throw new Denied(FenceReason.UNPARSEABLE, "frame is not valid json");
        }
        if (!(message instanceof Val.ObjV object) || !(object.fields().get("type") instanceof Val.Str type)) {
            throw new Denied(FenceReason.UNPARSEABLE, "frame has no message type");
        }
        Map<String, Val> fields = object.fields();
        String kind = type.text();
        if ((transport ? TRANSPORT_WS_PASS : LEGACY_WS_PASS).contains(kind)) {
            return List.of();
        }
        if (kind.equals(transport ? "subscribe" : "start")) {
            Submission submission = RequestReader.fromJsonObject(fields.get("payload"), setup);
            return DocumentReader.read(submission, setup);
        }
        throw new Denied(FenceReason.WEBSOCKET_DENIED, "websocket message type " + Reason.quote(kind) + " is not admitted");
    }
}
