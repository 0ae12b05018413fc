package dev.stockade.api.inference;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.spend.Reservation;
import dev.stockade.inference.RealtimeUsage;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * One realtime voice session between a caller and a backend: frames pass both ways unchanged, except that a
 * response is admitted before it starts (the client's {@code response.create}, or the backend's
 * {@code response.created} for one the backend began itself, as with voice activity detection) and settled at its
 * {@code response.done}. A response the budget refuses never reaches the backend, or is cancelled there at once;
 * the client gets a Realtime {@code error} event saying why, and the session stays open.
 */
final class RealtimeSession implements RealtimeUpstream.Listener {
    /** Who the session's spend and audit entries belong to. */
    record Owner(Identity caller, UUID orgId, UUID projectId, @Nullable UUID sandboxId, LlmRoute route,
                 InferenceKeys.@Nullable Source keySource) {
    }

    private final Owner owner;
    private final WebSocketSession client;
    private final RealtimeMeter meter;
    private final ObjectMapper json;
    private final Runnable onEnd;
    private volatile RealtimeUpstream upstream;
    private final ArrayDeque<Object> early = new ArrayDeque<>();
    /** Reservations for client-requested responses the backend has not announced yet, in request order. */
    private final ArrayDeque<Reservation> requested = new ArrayDeque<>();
    /** Responses under way by id, with their reservation (null: it was refused, or nothing was priced). */
    private final Map<String, Reservation> running = new HashMap<>();
    private volatile String model;
    private boolean ended;

    RealtimeSession(Owner owner, @Nullable String model, WebSocketSession client, RealtimeMeter meter,
                    ObjectMapper json, Runnable onEnd) {
        this.owner = owner;
        this.model = model;
        this.client = client;
        this.meter = meter;
        this.json = json;
        this.onEnd = onEnd;
    }

    Owner owner() {
        return owner;
    }

    /** The backend accepted the socket: what the client sent meanwhile goes first, in order. */
    synchronized void connected(RealtimeUpstream up) {
        this.upstream = up;
        while (!early.isEmpty()) {
            Object frame = early.poll();
            if (frame instanceof String text) {
                fromClient(text);
            } else {
                up.send((byte[]) frame);
            }
        }
    }

    /** A text frame from the client. */
    synchronized void fromClient(String frame) {
        if (ended) {
            return;
        }
        if (upstream == null) {
            early.add(frame);
            return;
        }
        if ("response.create".equals(typeOf(frame))) {
            Reservation.Result held = meter.reserve(owner, model, maxOutputTokens(frame));
            if (held instanceof Reservation.NotHeld refused) {
                refuse(refused.problem());
                return; // never reaches the backend: nothing is spent
            }
            requested.add(((Reservation.Reserved) held).reservation());
        }
        upstream.send(frame);
    }

    synchronized void fromClient(byte[] frame) {
        if (ended) {
            return;
        }
        if (upstream == null) {
            early.add(frame);
        } else {
            upstream.send(frame);
        }
    }

    @Override
    public synchronized void text(String frame) {
        String type = typeOf(frame);
        if (type.equals("session.created") || type.equals("session.updated") || type.equals("response.created")
                || type.equals("response.done")) {
            JsonNode event = parse(frame);
            RealtimeUsage.sessionModel(event).ifPresent(named -> model = named);
            String id = RealtimeUsage.responseId(event).orElse("");
            if (type.equals("response.created")) {
                started(id);
            } else if (type.equals("response.done")) {
                meter.settle(owner, model, running.remove(id), event);
            }
        }
        client.sendAsync(frame);
    }

    @Override
    public void binary(byte[] frame) {
        client.sendAsync(frame);
    }

    @Override
    public void closed(int code, String reason) {
        if (!end()) {
            return; // this side ended the session first and closed the client with its own code
        }
        client.close(new CloseReason(code == 1005 || code == 1006 ? CloseReason.GOING_AWAY.getCode() : code,
                reason == null ? "" : reason));
    }

    /** The client closed: the backend's socket goes too. */
    void clientClosed() {
        RealtimeUpstream up = upstream;
        end();
        if (up != null) {
            up.close(CloseReason.NORMAL.getCode(), "the client closed");
        }
    }

    /** A halt of the organization: both sockets close at once. */
    void halt() {
        meter.halted(owner, model);
        client.close(new CloseReason(4403, "the organization is halted"));
        clientClosed();
    }

    /**
     * A response began at the backend: it takes the oldest reservation of a client request, or, begun by the
     * backend itself, one of its own; refused, it is cancelled at once and the client told why.
     */
    private void started(String id) {
        Reservation held = requested.poll();
        if (held == null) {
            Reservation.Result r = meter.reserve(owner, model, OptionalLong.empty());
            if (r instanceof Reservation.NotHeld refused) {
                running.put(id, null);
                upstream.send("{\"type\":\"response.cancel\",\"response_id\":" + quote(id) + "}");
                refuse(refused.problem());
                return;
            }
            held = ((Reservation.Reserved) r).reservation();
        }
        running.put(id, held);
    }

    private void refuse(ApiProblem problem) {
        meter.refused(owner, model, problem);
        ObjectNode error = json.createObjectNode().put("type", "error");
        error.putObject("error").put("type", "invalid_request_error").put("code", problem.code().slug())
                .put("message", problem.detail());
        client.sendAsync(error.toString());
    }

    /**
     * Ends the session's accounting once: cut responses are charged their hold, unstarted ones released. True for
     * the call that ended it.
     */
    private synchronized boolean end() {
        if (ended) {
            return false;
        }
        ended = true;
        running.values().stream().filter(r -> r != null).forEach(r -> meter.settleCut(owner, model, r));
        running.clear();
        requested.forEach(meter::release);
        requested.clear();
        early.clear();
        onEnd.run();
        return true;
    }

    /** The output bound a {@code response.create} sets ({@code response.max_output_tokens}), if it is a number. */
    private OptionalLong maxOutputTokens(String frame) {
        JsonNode bound = parse(frame).path("response").path("max_output_tokens");
        return bound.canConvertToLong() && bound.asLong() > 0 ? OptionalLong.of(bound.asLong()) : OptionalLong.empty();
    }

    /** The event's top-level {@code type}, read without building the event (audio deltas are large). */
    private String typeOf(String frame) {
        try (JsonParser p = json.getFactory().createParser(frame)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return "";
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("type") && value == JsonToken.VALUE_STRING) {
                    return p.getText();
                }
                p.skipChildren();
            }
        } catch (IOException e) {
            return ""; // not JSON: the backend judges it, this side only passes it on
        }
        return "";
    }

    private JsonNode parse(String frame) {
        try {
            return json.readTree(frame);
        } catch (IOException e) {
            return json.missingNode();
        }
    }

    private String quote(String s) {
        return json.getNodeFactory().textNode(s).toString();
    }
}
