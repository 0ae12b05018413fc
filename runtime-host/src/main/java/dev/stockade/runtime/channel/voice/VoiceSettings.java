package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.runtime.config.VoiceEndpoint;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What one voice session is configured with, taken from the validated runtime configuration once, so that the
 * session client and the meeting never read environment variables themselves.
 *
 * @param endpoint the resolved realtime endpoint and its bearer key
 * @param model the realtime model ({@code ?model=} of the WebSocket URL)
 * @param voice the voice the model speaks with
 * @param transcriptionModel the transcriber whose text decides whether the agent was addressed
 * @param proxy the explicit {@code HTTPS_PROXY}, or {@code null} for a direct connection
 * @param account the meeting account the browser signs in with when a meeting asks
 * @param profileDir where the signed-in browser profile persists
 * @param admission the waiting-room limit, counted from the join request
 * @param cap the hard cap on one call
 */
public record VoiceSettings(VoiceEndpoint endpoint, String model, String voice, String transcriptionModel,
        ProxyRoute proxy, MeetingAccount account, Path profileDir, Duration admission, Duration cap) {

    /** Reads the settings of a runtime whose configuration has no problems. */
    public static VoiceSettings of(RuntimeConfig cfg) {
        return new VoiceSettings(cfg.voice(), cfg.value("OPENAI_REALTIME_MODEL"), cfg.value("OPENAI_REALTIME_VOICE"),
                cfg.value("OPENAI_TRANSCRIPTION_MODEL"), ProxyRoute.parse(cfg.settings().nonBlank("HTTPS_PROXY")),
                new MeetingAccount(cfg.settings().nonBlank("GOOGLE_BOT_EMAIL"),
                        cfg.settings().nonBlank("GOOGLE_BOT_PASSWORD")),
                cfg.dataDir().resolve("meeting-profile"), Duration.ofSeconds(cfg.meetingAdmissionTimeoutSeconds()),
                Duration.ofMinutes(cfg.meetingTimeoutMinutes()));
    }

    /** A copy with other waiting-room and call limits (tests use seconds where production uses minutes). */
    public VoiceSettings withLimits(Duration admissionLimit, Duration callCap) {
        return new VoiceSettings(endpoint, model, voice, transcriptionModel, proxy, account, profileDir,
                admissionLimit, callCap);
    }

    /** A copy whose browser profile lives elsewhere. */
    public VoiceSettings withProfile(Path dir) {
        return new VoiceSettings(endpoint, model, voice, transcriptionModel, proxy, account, dir, admission, cap);
    }

    /** A copy that tunnels through another proxy. */
    public VoiceSettings withProxy(ProxyRoute route) {
        return new VoiceSettings(endpoint, model, voice, transcriptionModel, route, account, profileDir, admission,
                cap);
    }

    /** A copy signing in with another meeting account. */
    public VoiceSettings withAccount(MeetingAccount a) {
        return new VoiceSettings(endpoint, model, voice, transcriptionModel, proxy, a, profileDir, admission, cap);
    }
}
