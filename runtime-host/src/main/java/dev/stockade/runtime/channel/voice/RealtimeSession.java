package dev.stockade.runtime.channel.voice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.json.StrictJson;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import dev.stockade.runtime.provider.ToolSpec;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One conversation with the OpenAI Realtime API over a WebSocket, carrying the agent's instructions and tools. Speech
 * is committed by the server's voice activity detection but answered only when the transcriber's text addresses the
 * agent: the session then asks for a response itself, and the transcript is never sent to the model. Function calls
 * run through the agent's dispatcher ({@link FunctionCalls}); usage is metered per {@code response.done}.
 */
public final class RealtimeSession implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]", "::1");
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

    /** What the session hands back to the meeting: the model's audio, what was said, and usage. */
    public interface Listener {
        /** PCM16 mono 24 kHz audio the model speaks. */
        void audio(byte[] pcm16);

        /** A speaker's turn ended with {@code transcript}; {@code addressed} says whether the agent will answer. */
        default void heard(String transcript, boolean addressed) {
        }

        /** The transcript of what the agent said in one response. */
        default void replied(String transcript) {
        }

        /** A response finished with this usage. */
        default void responded(RealtimeUsage usage) {
        }

        /** The server reported an error (its code only: the message may quote the input). */
        default void failed(String code) {
        }
    }

    private final RealtimeSocket socket;
    private final Addressing addressing;
    private final Listener listener;
    private final Telemetry telemetry;
    private final FunctionCalls calls;
    private final AtomicReference<RealtimeUsage> total = new AtomicReference<>(RealtimeUsage.NONE);

    private RealtimeSession(RealtimeSocket socket, Addressing addressing, CallBrief brief, Listener listener,
            Telemetry telemetry) {
        this.socket = socket;
        this.addressing = addressing;
        this.listener = listener;
        this.telemetry = telemetry;
        this.calls = new FunctionCalls(brief.dispatch(), this::send);
    }

    /** Connects, authenticates with the bearer key and configures the session with the agent's brief. */
    public static RealtimeSession open(VoiceSettings s, Addressing addressing, CallBrief brief, Listener listener,
            Telemetry telemetry) throws VoiceRefused {
        if (!s.endpoint().available()) {
            throw new VoiceRefused(VoiceChannel.NO_CREDENTIAL);
        }
        URI target = target(s);
        RealtimeSocket socket;
        try {
            socket = RealtimeSocket.open(target, s.endpoint().apiKey(), s.proxy(), CONNECT_TIMEOUT);
        } catch (VoiceRefused e) {
            throw new VoiceRefused("could not open the realtime session at `" + safe(target) + "`: " + e.getMessage());
        }
        RealtimeSession session = new RealtimeSession(socket, addressing, brief, listener, telemetry);
        session.send(sessionUpdate(s, brief));
        socket.listen(session::dispatch);
        Log.info("voice.session_opened", "endpoint_step", s.endpoint().step(), "model", s.model(), "tools",
                brief.tools().size());
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

    /**
     * The GA session shape: the agent's instructions and tools, audio out in the configured voice, and server VAD that
     * commits but does not answer.
     */
    static ObjectNode sessionUpdate(VoiceSettings s, CallBrief brief) {
        ObjectNode msg = JSON.createObjectNode().put("type", "session.update");
        ObjectNode session = msg.putObject("session").put("type", "realtime").put("model", s.model())
                .put("instructions", brief.instructions());
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
        ArrayNode tools = session.putArray("tools");
        for (ToolSpec t : brief.tools()) {
            tools.addObject().put("type", "function").put("name", t.name()).put("description", t.description())
                    .set("parameters", t.inputSchema());
        }
        session.put("tool_choice", brief.tools().isEmpty() ? "none" : "auto");
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

    private void send(ObjectNode event) {
        socket.send(event.toString());
    }

    void onEvent(JsonNode e) {
        switch (e.path("type").asText("")) {
            case "response.output_audio.delta", "response.audio.delta" ->
                listener.audio(Base64.getDecoder().decode(e.path("delta").asText("")));
            case "conversation.item.input_audio_transcription.completed" -> onTranscript(e.path("transcript").asText(""));
            case "response.output_audio_transcript.done", "response.audio_transcript.done" ->
                listener.replied(e.path("transcript").asText(""));
            case "response.output_item.added" -> calls.itemAdded(e.path("item"));
            case "response.function_call_arguments.done" -> calls.argumentsDone(e);
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
        listener.heard(transcript, addressed);
    }

    private void onResponseDone(JsonNode response) {
        RealtimeUsage u = RealtimeUsage.of(response.path("usage"));
        total.accumulateAndGet(u, RealtimeUsage::plus);
        telemetry.event("voice.response", "status", response.path("status").asText("unknown"), "input_tokens",
                u.inputTokens(), "output_tokens", u.outputTokens(), "input_audio_tokens", u.inputAudioTokens(),
                "output_audio_tokens", u.outputAudioTokens());
        Log.info("voice.response", "input_tokens", u.inputTokens(), "output_tokens", u.outputTokens());
        listener.responded(u);
        calls.responseDone(response);
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

    @Override
    public void close() {
        calls.close();
        socket.close();
    }
}
