package dev.stockade.api.clusters;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Upgraded streams to a relay-mode cluster, on this replica. The handshake goes to the relay as an ordinary
 * {@link RelayHub.Envelope} (with its {@code Upgrade} header); the relay carries it to the API server and then either
 * answers it as any request (a refusal: 401, 403, 404) or, on {@code 101}, opens a stream connection of its own to
 * {@code /v1/clusters/{clusterId}/relay/streams/{requestId}} with the tunnel token, carrying the API server's
 * {@code 101} headers; that connection becomes the cluster's half of the {@link ClusterStream}. A stream the relay does
 * not answer within {@code clusters.response-timeout} fails with 502.
 */
@Singleton
class RelayStreams {
    /** The {@code Upgrade} token of the relay's stream connection. */
    static final String UPGRADE = "stockade-relay-stream";
    /** The header of the relay's stream connection carrying the API server's {@code 101} ({@link RelayHub.Answer}). */
    static final String ANSWER_HEADER = "X-Stockade-Relay-Answer";

    private record Waiting(UUID clusterId, StreamDial.Answer answer) {
    }

    private final RelayHub relays;
    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

    RelayStreams(RelayHub relays) {
        this.relays = relays;
    }

    /** Sends the handshake to the cluster's relay; its outcome reaches {@code answer}, once. */
    void open(UUID clusterId, RelayHub.Envelope envelope, StreamDial.Answer answer, Duration timeout) {
        waiting.put(envelope.id(), new Waiting(clusterId, answer));
        try {
            relays.send(clusterId, envelope).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete((relayed, failure) -> {
                        Waiting w = waiting.remove(envelope.id());
                        if (w == null) {
                            return; // the stream connection came first
                        }
                        relays.forget(clusterId, envelope.id());
                        if (failure != null) {
                            w.answer().unreachable("the cluster's relay did not answer the handshake within "
                                    + timeout.toSeconds() + " s, or was disconnected");
                        } else {
                            answer(w.answer(), relayed);
                        }
                    });
        } catch (RuntimeException e) {
            waiting.remove(envelope.id());
            throw e;
        }
    }

    private static void answer(StreamDial.Answer answer, RelayHub.Answer relayed) {
        FullHttpResponse response;
        try {
            response = response(relayed, false);
        } catch (IllegalArgumentException e) {
            answer.unreachable("the cluster's relay answered the handshake with a status or body it cannot have");
            return;
        }
        answer.answered(response);
    }

    /** The waiting stream {@code requestId} of {@code clusterId}, taken by the relay's stream connection. */
    Optional<StreamDial.Answer> claim(UUID clusterId, String requestId) {
        Waiting w = waiting.get(requestId);
        if (w == null || !w.clusterId().equals(clusterId) || !waiting.remove(requestId, w)) {
            return Optional.empty();
        }
        relays.forget(clusterId, requestId);
        return Optional.of(w.answer());
    }

    /** The relay's answer as the sandbox receives it: only the allowlisted headers, the connection closing after it. */
    static FullHttpResponse response(RelayHub.Answer answer, boolean switching) {
        byte[] body = answer.body() == null || switching ? new byte[0] : Base64.getDecoder().decode(answer.body());
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(body));
        if (answer.headers() != null) {
            answer.headers().forEach((name, values) -> {
                if (values != null) {
                    values.forEach(v -> r.headers().add(name, v));
                }
            });
        }
        StreamDial.filter(r.headers());
        if (!switching) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                    .set(HttpHeaderNames.CONTENT_LENGTH, body.length);
        }
        return r;
    }
}
