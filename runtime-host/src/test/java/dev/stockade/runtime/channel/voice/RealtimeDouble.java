package dev.stockade.runtime.channel.voice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.testing.LoopbackWebSocketServer;
import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.List;
import java.util.Deque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.java_websocket.WebSocket;
import org.java_websocket.drafts.Draft;
import org.java_websocket.exceptions.InvalidDataException;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.handshake.ServerHandshakeBuilder;

/**
 * A loopback stand-in for the OpenAI Realtime API speaking its GA event protocol: it checks the bearer key at the
 * handshake, greets with {@code session.created}, answers {@code session.update} with {@code session.updated},
 * collects {@code input_audio_buffer.append} audio, and on {@code response.create} streams
 * {@code response.output_audio.delta} and its transcript and ends with {@code response.done} carrying usage, or, when
 * scripted ({@link #nextResponseCalls}), streams a function call and then expects its
 * {@code function_call_output} item. {@link #speak} plays a caller's turn as the server's VAD and transcriber would
 * report it.
 */
public final class RealtimeDouble extends LoopbackWebSocketServer implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    /** The audio every response speaks: 480 samples of a square wave. */
    static final byte[] REPLY_AUDIO = replyAudio();
    /** The usage every response reports, as the real server shapes it. */
    static final long INPUT_TOKENS = 310;
    static final long OUTPUT_TOKENS = 95;
    static final long INPUT_AUDIO_TOKENS = 250;
    static final long OUTPUT_AUDIO_TOKENS = 80;
    static final long CACHED_TOKENS = 64;

    private final String key;
    public final List<JsonNode> received = new CopyOnWriteArrayList<>();
    final List<String> handshakes = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream audio = new ByteArrayOutputStream();
    /** Function calls the next responses make instead of speaking, in order: {name, JSON arguments}. */
    private final Deque<String[]> scriptedCalls = new ConcurrentLinkedDeque<>();
    /** Call ids the double has made and not yet seen an output for. */
    private final Set<String> openCalls = ConcurrentHashMap.newKeySet();
    private volatile byte[] replyAudio = REPLY_AUDIO;
    private volatile String replyTranscript = "Yes, I am here.";
    private volatile WebSocket client;
    /** Counted down when a client's socket is open here: a client's handshake can finish before the server's. */
    private volatile CountDownLatch connected = new CountDownLatch(1);
    private int item;

    public RealtimeDouble(String key) throws InterruptedException {
        this.key = key;
        listen();
    }

    /** The endpoint as OPENAI_REALTIME_URL would name it. */
    public String url() {
        return "ws://127.0.0.1:" + getPort() + "/v1/realtime";
    }

    @Override
    public ServerHandshakeBuilder onWebsocketHandshakeReceivedAsServer(WebSocket conn, Draft draft,
            ClientHandshake request) throws InvalidDataException {
        handshakes.add(request.getResourceDescriptor() + " " + request.getFieldValue("Authorization"));
        if (!("Bearer " + key).equals(request.getFieldValue("Authorization"))) {
            throw new InvalidDataException(401, "invalid_api_key");
        }
        return super.onWebsocketHandshakeReceivedAsServer(conn, draft, request);
    }

    @Override
    public void onOpen(WebSocket conn, ClientHandshake handshake) {
        client = conn;
        connected.countDown();
        send(event("session.created").set("session", JSON.createObjectNode().put("type", "realtime")));
    }

    @Override
    public void onMessage(WebSocket conn, String message) {
        JsonNode e;
        try {
            e = JSON.readTree(message);
        } catch (Exception ex) {
            send(error("invalid_request_error", "invalid_json"));
            return;
        }
        received.add(e);
        switch (e.path("type").asText()) {
            case "session.update" -> send(event("session.updated").set("session", e.path("session")));
            case "input_audio_buffer.append" -> {
                synchronized (audio) {
                    audio.writeBytes(Base64.getDecoder().decode(e.path("audio").asText()));
                }
            }
            case "response.create" -> {
                String[] call = scriptedCalls.poll();
                if (call == null) {
                    respond();
                } else {
                    callFunction(call[0], call[1]);
                }
            }
            case "conversation.item.create" -> itemCreated(e.path("item"));
            default -> send(error("invalid_request_error", "unknown_event"));
        }
    }

    /** A caller's turn: speech started and stopped, the buffer committed, then the transcript. */
    public void speak(String transcript) {
        String id = "item_" + (++item);
        send(event("input_audio_buffer.speech_started").put("item_id", id).put("audio_start_ms", 0));
        send(event("input_audio_buffer.speech_stopped").put("item_id", id).put("audio_end_ms", 900));
        send(event("input_audio_buffer.committed").put("item_id", id));
        send(event("conversation.item.input_audio_transcription.completed").put("item_id", id)
                .put("content_index", 0).put("transcript", transcript));
    }

    /** The next response calls {@code name} with {@code arguments} (a JSON object as text) instead of speaking. */
    public void nextResponseCalls(String name, String arguments) {
        scriptedCalls.add(new String[] {name, arguments});
    }

    /** What every spoken response says from now on: its audio (PCM16 mono 24 kHz) and the transcript of it. */
    public void replyWith(byte[] pcm16, String transcript) {
        replyAudio = pcm16;
        replyTranscript = transcript;
    }

    /** An error event as the server sends one. */
    public void fail(String code) {
        send(error("invalid_request_error", code));
    }

    private void respond() {
        String id = "resp_" + (++item);
        String itemId = "item_" + (++item);
        send(event("response.created").set("response", JSON.createObjectNode().put("id", id)
                .put("status", "in_progress")));
        byte[] pcm = replyAudio;
        // the real server streams audio in deltas of a fraction of a second
        for (int from = 0; from < pcm.length; from += 9_600) {
            byte[] part = java.util.Arrays.copyOfRange(pcm, from, Math.min(pcm.length, from + 9_600));
            send(event("response.output_audio.delta").put("response_id", id).put("item_id", itemId)
                    .put("output_index", 0).put("content_index", 0)
                    .put("delta", Base64.getEncoder().encodeToString(part)));
        }
        send(event("response.output_audio_transcript.delta").put("response_id", id).put("item_id", itemId)
                .put("output_index", 0).put("content_index", 0).put("delta", replyTranscript));
        send(event("response.output_audio.done").put("response_id", id).put("item_id", itemId));
        send(event("response.output_audio_transcript.done").put("response_id", id).put("item_id", itemId)
                .put("output_index", 0).put("content_index", 0).put("transcript", replyTranscript));
        ObjectNode message = JSON.createObjectNode().put("id", itemId).put("type", "message")
                .put("status", "completed").put("role", "assistant");
        message.putArray("content").addObject().put("type", "output_audio").put("transcript", replyTranscript);
        done(id, message);
    }

    /** A response that calls a function, event by event as the GA server streams one. */
    private void callFunction(String name, String arguments) {
        String id = "resp_" + (++item);
        String itemId = "item_" + (++item);
        String callId = "call_" + (++item);
        openCalls.add(callId);
        send(event("response.created").set("response", JSON.createObjectNode().put("id", id)
                .put("status", "in_progress")));
        ObjectNode added = JSON.createObjectNode().put("id", itemId).put("type", "function_call")
                .put("status", "in_progress").put("name", name).put("call_id", callId).put("arguments", "");
        send(event("response.output_item.added").put("response_id", id).put("output_index", 0).set("item", added));
        send(event("response.function_call_arguments.delta").put("response_id", id).put("item_id", itemId)
                .put("output_index", 0).put("call_id", callId).put("delta", arguments));
        send(event("response.function_call_arguments.done").put("response_id", id).put("item_id", itemId)
                .put("output_index", 0).put("call_id", callId).put("name", name).put("arguments", arguments));
        ObjectNode complete = added.deepCopy().put("status", "completed").put("arguments", arguments);
        send(event("response.output_item.done").put("response_id", id).put("output_index", 0).set("item", complete));
        done(id, complete);
    }

    /** A client's item: a function call's output must answer a call the model made. */
    private void itemCreated(JsonNode it) {
        if (!"function_call_output".equals(it.path("type").asText()) || !openCalls.remove(it.path("call_id").asText())) {
            send(error("invalid_request_error", "invalid_item"));
            return;
        }
        ObjectNode stored = ((ObjectNode) it.deepCopy()).put("id", "item_" + (++item)).put("status", "completed");
        send(event("conversation.item.added").set("item", stored));
        send(event("conversation.item.done").set("item", stored));
    }

    private void done(String id, ObjectNode outputItem) {
        ObjectNode done = event("response.done");
        ObjectNode r = done.putObject("response").put("id", id).put("status", "completed");
        r.putArray("output").add(outputItem);
        ObjectNode u = r.putObject("usage").put("total_tokens", INPUT_TOKENS + OUTPUT_TOKENS)
                .put("input_tokens", INPUT_TOKENS).put("output_tokens", OUTPUT_TOKENS);
        u.putObject("input_token_details").put("text_tokens", INPUT_TOKENS - INPUT_AUDIO_TOKENS)
                .put("audio_tokens", INPUT_AUDIO_TOKENS).put("cached_tokens", CACHED_TOKENS);
        u.putObject("output_token_details").put("text_tokens", OUTPUT_TOKENS - OUTPUT_AUDIO_TOKENS)
                .put("audio_tokens", OUTPUT_AUDIO_TOKENS);
        send(done);
    }

    /** The audio appended so far. */
    public byte[] audio() {
        synchronized (audio) {
            return audio.toByteArray();
        }
    }

    /** The types of the client's events, in order. */
    public List<String> types() {
        return received.stream().map(e -> e.path("type").asText()).toList();
    }

    private static ObjectNode event(String type) {
        return JSON.createObjectNode().put("event_id", "event_" + System.nanoTime()).put("type", type);
    }

    private static ObjectNode error(String type, String code) {
        ObjectNode e = event("error");
        e.putObject("error").put("type", type).put("code", code).put("message", "rejected by the double");
        return e;
    }

    private void send(ObjectNode e) {
        try {
            // a test acts as soon as its client is open; wait (bounded) for the server's side of the same socket
            connected.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        WebSocket c = client;
        if (c != null && c.isOpen()) {
            c.send(e.toString());
        }
    }

    private static byte[] replyAudio() {
        byte[] b = new byte[960];
        for (int i = 0; i < b.length; i += 2) {
            short v = (short) ((i / 2) % 48 < 24 ? 8000 : -8000);
            b[i] = (byte) v;
            b[i + 1] = (byte) (v >> 8);
        }
        return b;
    }

    @Override
    public void onClose(WebSocket conn, int code, String reason, boolean remote) {
        client = null;
        connected = new CountDownLatch(1);
    }

    @Override
    public void close() {
        try {
            stop(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
