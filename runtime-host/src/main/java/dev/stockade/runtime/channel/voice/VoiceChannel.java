package dev.stockade.runtime.channel.voice;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.LiveAgent;
import dev.stockade.runtime.agent.Tool;
import dev.stockade.runtime.config.ChildEnvironment;
import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.runtime.config.VoiceEndpoint;
import dev.stockade.runtime.http.HttpProblem;
import dev.stockade.runtime.http.Request;
import dev.stockade.runtime.http.Response;
import dev.stockade.runtime.http.Router;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import dev.stockade.runtime.provider.ToolSpec;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The voice-meeting channel: its two tools are offered only when a realtime credential resolves and the host has the
 * browser and audio toolchain; otherwise the tools are absent and a call asked for over HTTP is refused with the
 * reason. One meeting runs at a time.
 */
public final class VoiceChannel {
    /** The refusal when no realtime credential resolves (runtime.md, Errors 2). */
    public static final String NO_CREDENTIAL = "voice calls are off: no realtime credential is set (set "
            + "OPENAI_REALTIME_URL with OPENAI_REALTIME_API_KEY, or PLATFORM_INFERENCE_OPENAI_BASE_URL with "
            + "PLATFORM_INFERENCE_OPENAI_API_KEY, or OPENAI_API_KEY)";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long stopping the runtime waits for a call to be left and cleaned up. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(20);
    private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final VoiceSettings settings;
    private final VoiceToolchain tools;
    private final ChildEnvironment env;
    private final Supplier<List<String>> wakeWords;
    private final Telemetry telemetry;
    private final Executor calls;
    private final AtomicReference<Meeting> current = new AtomicReference<>();
    private volatile Meeting.Voice voice;
    private volatile CallStatus lastEnd = new CallStatus("idle", null, null, null);

    public VoiceChannel(VoiceSettings settings, VoiceToolchain tools, ChildEnvironment env,
            Supplier<List<String>> wakeWords, Telemetry telemetry, Executor calls) {
        this.settings = settings;
        this.tools = tools;
        this.env = env;
        this.wakeWords = wakeWords;
        this.telemetry = telemetry;
        this.calls = calls;
    }

    /**
     * Connects calls to the one agent once it exists (the agent is built with this channel's tools, so it comes
     * second): a call then carries the agent's instructions and tools and is stored in {@code conversations}.
     */
    public void serve(LiveAgent agent, Conversations conversations) {
        voice = new RealtimeVoice(settings, wakeWords, agent, conversations, telemetry);
    }

    /**
     * The channel as the runtime configures it: the toolchain looked up on the runtime's PATH, meetings on their own
     * daemon thread. A malformed HTTPS_PROXY leaves voice refused rather than connecting around the proxy.
     */
    public static VoiceChannel configure(RuntimeConfig cfg, Supplier<List<String>> wakeWords, Telemetry telemetry) {
        VoiceSettings s;
        try {
            s = VoiceSettings.of(cfg);
        } catch (IllegalArgumentException e) {
            Log.warn("voice.disabled", "reason", e.getMessage());
            s = new VoiceSettings(new VoiceEndpoint(null, null, 0), cfg.value("OPENAI_REALTIME_MODEL"),
                    cfg.value("OPENAI_REALTIME_VOICE"), cfg.value("OPENAI_TRANSCRIPTION_MODEL"), null,
                    MeetingAccount.NONE, cfg.dataDir().resolve("meeting-profile"),
                    Duration.ofSeconds(cfg.meetingAdmissionTimeoutSeconds()),
                    Duration.ofMinutes(cfg.meetingTimeoutMinutes()));
        }
        VoiceChannel c = new VoiceChannel(s, VoiceToolchain.find(cfg.childEnvironment().variables().get("PATH")),
                cfg.childEnvironment(), wakeWords, telemetry, r -> {
                    Thread t = new Thread(r, "voice-meeting");
                    t.setDaemon(true);
                    t.start();
                });
        int step = s.endpoint().step();
        c.refusal().ifPresentOrElse(why -> Log.info("voice.off", "reason", why),
                () -> Log.info("voice.ready", "endpoint_step", step));
        return c;
    }

    /** Why a call cannot be placed on this host, or empty when it can. */
    public Optional<String> refusal() {
        if (!settings.endpoint().available()) {
            return Optional.of(NO_CREDENTIAL);
        }
        if (!tools.complete()) {
            return Optional.of("voice calls are off: this host lacks " + String.join(", ", tools.missing())
                    + " (install chromium, chromium-driver, pulseaudio and pulseaudio-utils)");
        }
        return Optional.empty();
    }

    /** The meeting tools for the agent: none unless a call can be placed. */
    public List<Tool> agentTools() {
        if (refusal().isPresent()) {
            return List.of();
        }
        ObjectNode joinSchema = JSON.createObjectNode().put("type", "object");
        joinSchema.putObject("properties").putObject("url").put("type", "string")
                .put("description", "the meeting's https:// link");
        joinSchema.putArray("required").add("url");
        Tool join = new Tool(new ToolSpec("join_meeting", "Join a video call by voice with the meeting account. "
                + "You wait in the waiting room until someone admits you.", joinSchema), false,
                in -> join(urlOf(in)), null);
        Tool leave = new Tool(new ToolSpec("leave_meeting", "Leave the video call you are in.",
                JSON.createObjectNode().put("type", "object")), false, in -> leave(), null);
        Tool status = new Tool(new ToolSpec("meeting_status", "Whether you are waiting to be admitted or in a call, "
                + "and how the last call ended (for example why joining failed).",
                JSON.createObjectNode().put("type", "object")), false, in -> status().said(), null);
        return List.of(join, leave, status);
    }

    /**
     * {@code POST /agents/voice/calls {"url": ...}} joins; {@code DELETE /agents/voice/calls} leaves;
     * {@code GET /agents/voice/calls} says what the channel is doing and how the last call ended.
     */
    public void routes(Router router) {
        router.add("POST", "/agents/voice/calls", this::post);
        router.add("GET", "/agents/voice/calls", req -> Response.json(200, status()));
        router.add("DELETE", "/agents/voice/calls", req -> {
            try {
                return Response.json(200, JSON.createObjectNode().put("detail", leave()));
            } catch (Tool.ToolError e) {
                throw new HttpProblem(409, "no-meeting", e.getMessage());
            }
        });
    }

    private Response post(Request req) {
        Optional<String> no = refusal();
        if (no.isPresent()) {
            throw new HttpProblem(503, "voice-unavailable", no.get());
        }
        try {
            return Response.json(202, JSON.createObjectNode().put("detail", join(urlOf(req.jsonObject()))));
        } catch (Tool.ToolError e) {
            throw new HttpProblem(409, "meeting-refused", e.getMessage());
        }
    }

    /** Starts a meeting in the background and says what happens next. */
    String join(URI url) throws Tool.ToolError {
        Meeting.Voice v = voice;
        if (v == null) {
            throw new Tool.ToolError("the voice channel is not connected to the agent yet; try again in a moment");
        }
        Meeting m = new Meeting(url, settings, tools, env, v);
        if (!current.compareAndSet(null, m)) {
            throw new Tool.ToolError("already in a meeting (" + current.get().url() + "); leave it first");
        }
        m.outcome().whenComplete((o, e) -> {
            lastEnd = new CallStatus("idle", null, o, m.failure().orElse(null));
            current.compareAndSet(m, null);
        });
        calls.execute(m::run);
        Log.info("voice.meeting_join", "host", url.getHost());
        return "Asked to join " + url + ". Waiting up to " + settings.admission().toSeconds()
                + " s to be admitted; the call ends after at most " + settings.cap().toMinutes() + " min.";
    }

    String leave() throws Tool.ToolError {
        Meeting m = current.get();
        if (m == null) {
            throw new Tool.ToolError("not in a meeting");
        }
        m.leave();
        return "Leaving " + m.url() + ".";
    }

    /** What the channel is doing now, and how the last call ended. */
    public CallStatus status() {
        Meeting m = current.get();
        CallStatus last = lastEnd;
        if (m == null) {
            return last;
        }
        return new CallStatus(m.admitted().isDone() ? "in_call" : "waiting", m.url().toString(), last.lastOutcome(),
                last.lastDetail());
    }

    /** The meeting in progress, if any. */
    public Optional<Meeting> current() {
        return Optional.ofNullable(current.get());
    }

    /**
     * Leaves the meeting in progress (the runtime is stopping) and waits, bounded, for the browser to close and the
     * sinks to be unloaded, so that nothing of the call outlives the runtime.
     */
    public void close() {
        current().ifPresent(m -> {
            m.leave();
            try {
                m.outcome().get(CLOSE_WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                Log.warn("voice.close_incomplete", "error", e.getClass().getSimpleName());
            }
        });
    }

    /** A meeting link: https, or plain http only on this machine (a local meeting page). */
    static URI urlOf(JsonNode in) throws Tool.ToolError {
        JsonNode n = in == null ? null : in.get("url");
        if (n == null || !n.isTextual()) {
            throw new Tool.ToolError("`url` must be a string");
        }
        try {
            URI u = new URI(n.asText().strip());
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            String host = u.getHost() == null ? "" : u.getHost().toLowerCase(Locale.ROOT);
            if (scheme.equals("https") && !host.isEmpty() || scheme.equals("http") && LOOPBACK.contains(host)) {
                return u;
            }
        } catch (Exception e) {
            // reported below
        }
        throw new Tool.ToolError("`url` must be an https:// meeting link (plain http:// only for localhost)");
    }
}
