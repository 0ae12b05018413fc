package dev.stockade.runtime.channel.voice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.json.StrictJson;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One conversation with the OpenAI Realtime API over a WebSocket. Speech is committed by the server's voice activity
 * detection but answered only when the transcriber's text addresses the agent: the session then asks for a response
 * itself, and the transcript is never sent to the model. Usage is metered per {@code response.done}.
 */
public final class RealtimeSession implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]", "::1");
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

    /** What the session hands back to the meeting: the model's audio, decisions and usage. */
    public interface Listener {
        /** PCM16 mono 24 kHz audio the model speaks. */
        void audio(byte[] pcm16);

        /** A speaker's turn ended; {@code addressed} says whether the agent will answer it. */
        default void heard(boolean addressed) {
        }

        /** A response finished with this usage. */
        default void responded(RealtimeUsage usage) {
        }

        /** The server reported an error (its code only: the message may quote the input). */
        default void failed(String code) {
        }
    }

    private final WebSocket socket;
    private final Addressing addressing;
    private final Listener listener;
    private final Telemetry telemetry;
    private final AtomicReference<RealtimeUsage> total = new AtomicReference<>(RealtimeUsage.NONE);

    private RealtimeSession(WebSocket socket, Addressing addressing, Listener listener, Telemetry telemetry) {
        this.socket = socket;
        this.addressing = addressing;
        this.listener = listener;
        this.telemetry = telemetry;
    }

    /** Connects, authenticates with the bearer key and configures the session. */
    public static RealtimeSession open(VoiceSettings s, Addressing addressing, Listener listener, Telemetry telemetry)
            throws VoiceRefused {
        if (!s.endpoint().available()) {
            throw new VoiceRefused(VoiceChannel.NO_CREDENTIAL);
        }
        URI target = target(s);
        HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT);
        if (s.proxy() != null) {
            int port = s.proxy().getPort() > 0 ? s.proxy().getPort() : 80;
            // The JDK's WebSocket client opens a CONNECT tunnel through an HTTP proxy, for ws and wss alike.
            http.proxy(ProxySelector.of(new InetSocketAddress(s.proxy().getHost(), port)));
        }
        SessionReader reader = new SessionReader();
        WebSocket ws;
        try {
            ws = http.build().newWebSocketBuilder().connectTimeout(CONNECT_TIMEOUT)
                    .header("Authorization", "Bearer " + s.endpoint().apiKey())
                    .buildAsync(target, reader).get(CONNECT_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
        } catch (Exception e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new VoiceRefused("could not open the realtime session at `" + safe(target) + "`: "
                    + cause.getClass().getSimpleName());
        }
        RealtimeSession session = new RealtimeSession(ws, addressing, listener, telemetry);
        reader.attach(session);
        session.send(sessionUpdate(s));
        Log.info("voice.session_opened", "endpoint_step", s.endpoint().step(), "model", s.model());
        return session;
    }

    /** The URL with {@code ?model=}; plain ws is refused for a host that is not this machine. */
    static URI target(VoiceSettings s) throws VoiceRefused {
        URI u = URI.create(s.endpoint().url());
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        String host = u.getHost() == null ? "" : u.getHost().toLowerCase(Locale.ROOT);
        boolean managed = s.endpoint().step() == 2; // the platform's own gateway, whose scheme it chose
        if (!scheme.equals("wss") && !(scheme.equals("ws") && (LOOPBACK.contains(host) || managed))) {
            throw new VoiceRefused("the realtime endpoint `" + safe(u) + "` must be wss:// (plain ws:// only for "
                    + "localhost, 127.0.0.1 and [::1])");
        }
        String sep = u.getRawQuery() == null ? "?" : "&";
        return URI.create(u + sep + "model=" + URLEncoder.encode(s.model(), StandardCharsets.UTF_8));
    }

    private static String safe(URI u) {
        return u.getScheme() + "://" + u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "") + u.getPath();
    }

    /** The GA session shape: audio out in the configured voice, server VAD that commits but does not answer. */
    static ObjectNode sessionUpdate(VoiceSettings s) {
        ObjectNode msg = JSON.createObjectNode().put("type", "session.update");
        ObjectNode session = msg.putObject("session").put("type", "realtime").put("model", s.model());
        session.putArray("output_modalities").add("audio");
        ObjectNode input = session.putObject("audio").putObject("input");
        input.putObject("format").put("type", "audio/pcm").put("rate", 24_000);
        input.putObject("transcription").put("model", s.transcriptionModel());
        // The agent answers only when addressed: the transcript decides, so the server must not answer by itself.
        input.putObject("turn_detection").put("type", "server_vad").put("create_response", false)
                .put("interrupt_response", true);
        ObjectNode output = ((ObjectNode) session.get("audio")).putObject("output");
        output.putObject("format").put("type", "audio/pcm").put("rate", 24_000);
        output.put("voice", s.voice());
        return msg;
    }

    /** Sends microphone audio (PCM16 mono 24 kHz) to the input buffer. */
    public void appendAudio(byte[] pcm16) {
        send(JSON.createObjectNode().put("type", "input_audio_buffer.append")
                .put("audio", Base64.getEncoder().encodeToString(pcm16)));
    }

    /** The usage of all responses so far. */
    public RealtimeUsage usage() {
        return total.get();
    }

    private synchronized void send(ObjectNode event) {
        // The JDK allows one outstanding send; waiting here keeps frames in order.
        socket.sendText(event.toString(), true).join();
    }

    void onEvent(JsonNode e) {
        String type = e.path("type").asText("");
        switch (type) {
            case "response.output_audio.delta", "response.audio.delta" ->
                listener.audio(Base64.getDecoder().decode(e.path("delta").asText("")));
            case "conversation.item.input_audio_transcription.completed" -> onTranscript(e.path("transcript").asText(""));
            case "response.done" -> onResponseDone(e.path("response"));
            case "error" -> {
                String code = e.path("error").path("code").asText(e.path("error").path("type").asText("unknown"));
                Log.warn("voice.realtime_error", "code", code);
                listener.failed(code);
            }
            default -> {
                // session.created/updated, speech_started/stopped, committed, deltas of text: nothing to act on
            }
        }
    }

    private void onTranscript(String transcript) {
        boolean addressed = addressing.addressed(transcript);
        if (addressed) {
            send(JSON.createObjectNode().put("type", "response.create"));
        }
        listener.heard(addressed);
    }

    private void onResponseDone(JsonNode response) {
        RealtimeUsage u = RealtimeUsage.of(response.path("usage"));
        total.accumulateAndGet(u, RealtimeUsage::plus);
        telemetry.event("voice.response", "status", response.path("status").asText("unknown"), "input_tokens",
                u.inputTokens(), "output_tokens", u.outputTokens(), "input_audio_tokens", u.inputAudioTokens(),
                "output_audio_tokens", u.outputAudioTokens());
        Log.info("voice.response", "input_tokens", u.inputTokens(), "output_tokens", u.outputTokens());
        listener.responded(u);
    }

    @Override
    public void close() {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            socket.abort();
        }
    }

    /** Joins text frames into events; a malformed event is logged by kind and dropped. */
    private static final class SessionReader implements WebSocket.Listener {
        private final CompletableFuture<RealtimeSession> session = new CompletableFuture<>();
        private final StringBuilder text = new StringBuilder();

        void attach(RealtimeSession s) {
            session.complete(s);
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String frame = text.toString();
                text.setLength(0);
                // Events that arrive before open() returns wait for the session object.
                return session.thenAccept(s -> s.dispatch(frame)).thenRun(() -> ws.request(1));
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            Log.info("voice.session_closed", "code", statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            Log.warn("voice.session_failed", "error", error.getClass().getSimpleName());
        }
    }

    private void dispatch(String frame) {
        try {
            onEvent(StrictJson.object(frame));
        } catch (MalformedJson e) {
            Log.warn("voice.malformed_event", "detail", "not a JSON object");
        } catch (RuntimeException e) {
            Log.warn("voice.event_failed", "error", e.getClass().getSimpleName());
        }
    }
}
