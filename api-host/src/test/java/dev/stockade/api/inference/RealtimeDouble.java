package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.testing.LoopbackWebSocketServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.java_websocket.WebSocket;
import org.java_websocket.handshake.ClientHandshake;

/**
 * A realtime voice backend on loopback speaking the OpenAI Realtime API's server events: {@code session.created}
 * on connect, and for each {@code response.create} (or, as voice activity detection does, each
 * {@code input_audio_buffer.commit}) {@code response.created}, a transcript delta and a {@code response.done} with
 * the usage of the API reference's shape. It records every handshake's headers and every event it received.
 */
final class RealtimeDouble extends LoopbackWebSocketServer {
    /** The usage every response reports: 200 text and 1,000 audio tokens in, 100 text and 400 audio tokens out. */
    static final String USAGE = "{\"total_tokens\":1700,\"input_tokens\":1200,\"output_tokens\":500,"
            + "\"input_token_details\":{\"cached_tokens\":0,\"text_tokens\":200,\"audio_tokens\":1000,"
            + "\"image_tokens\":0,\"cached_tokens_details\":{\"text_tokens\":0,\"audio_tokens\":0,\"image_tokens\":0}},"
            + "\"output_token_details\":{\"text_tokens\":100,\"audio_tokens\":400}}";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one handshake carried. */
    record Handshake(String path, Map<String, String> headers) {
    }

    final List<Handshake> handshakes = new CopyOnWriteArrayList<>();
    final List<JsonNode> received = new CopyOnWriteArrayList<>();
    /** The usage the next responses report ({@link #USAGE} unless a test sets another). */
    volatile String usage = USAGE;
    /** When true, a response starts and never finishes (a session cut mid-response). */
    volatile boolean holdResponses;
    private final AtomicInteger responses = new AtomicInteger();

    private RealtimeDouble() {
    }

    /** Listening, once this returns. */
    static RealtimeDouble begin() {
        RealtimeDouble d = new RealtimeDouble();
        try {
            d.listen();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the realtime double started", e);
        }
        return d;
    }

    /** The double's base URL as the platform's {@code inference.<backend>.base-url}. */
    String baseUrl() {
        return "http://127.0.0.1:" + getPort();
    }

    @Override
    public void onOpen(WebSocket conn, ClientHandshake handshake) {
        Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        handshake.iterateHttpFields().forEachRemaining(name -> headers.put(name, handshake.getFieldValue(name)));
        handshakes.add(new Handshake(handshake.getResourceDescriptor(), headers));
        String model = handshake.getResourceDescriptor().replaceAll(".*[?&]model=([^&]*).*", "$1");
        conn.send("{\"type\":\"session.created\",\"event_id\":\"ev_1\",\"session\":{\"id\":\"sess_1\",\"model\":\""
                + model + "\"}}");
    }

    @Override
    public void onMessage(WebSocket conn, String message) {
        JsonNode event;
        try {
            event = JSON.readTree(message);
        } catch (java.io.IOException e) {
            conn.send("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"not JSON\"}}");
            return;
        }
        received.add(event);
        String type = event.path("type").asText();
        if (type.equals("response.create") || type.equals("input_audio_buffer.commit")) {
            String id = "resp_" + responses.incrementAndGet();
            conn.send("{\"type\":\"response.created\",\"response\":{\"id\":\"" + id + "\",\"status\":\"in_progress\"}}");
            conn.send("{\"type\":\"response.output_audio_transcript.delta\",\"response_id\":\"" + id
                    + "\",\"delta\":\"Hello from the double\"}");
            if (!holdResponses) {
                conn.send("{\"type\":\"response.done\",\"response\":{\"id\":\"" + id
                        + "\",\"status\":\"completed\",\"usage\":" + usage + "}}");
            }
        }
    }

    /** The events of {@code type} the double received. */
    List<JsonNode> receivedOf(String type) {
        return received.stream().filter(e -> e.path("type").asText().equals(type)).toList();
    }

    @Override
    public void onClose(WebSocket conn, int code, String reason, boolean remote) {
        // nothing to release: each connection's state is the frames it already answered
    }

    void close() {
        try {
            stop(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
