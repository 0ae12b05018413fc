package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.runtime.config.VoiceEndpoint;
import java.net.URI;
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
 * @param profileDir where the signed-in browser profile persists
 * @param admission the waiting-room limit, counted from the join request
 * @param cap the hard cap on one call
 */
public record VoiceSettings(VoiceEndpoint endpoint, String model, String voice, String transcriptionModel, URI proxy,
        Path profileDir, Duration admission, Duration cap) {

    /** Reads the settings of a runtime whose configuration has no problems. */
    public static VoiceSettings of(RuntimeConfig cfg) {
        return new VoiceSettings(cfg.voice(), cfg.value("OPENAI_REALTIME_MODEL"), cfg.value("OPENAI_REALTIME_VOICE"),
                cfg.value("OPENAI_TRANSCRIPTION_MODEL"), proxy(cfg.settings().nonBlank("HTTPS_PROXY")),
                cfg.dataDir().resolve("meeting-profile"), Duration.ofSeconds(cfg.meetingAdmissionTimeoutSeconds()),
                Duration.ofMinutes(cfg.meetingTimeoutMinutes()));
    }

    /**
     * The proxy URI, or {@code null} when unset; a value that is not a URL with a host and port refuses voice, as a
     * direct connection would step around the sandbox's egress proxy.
     */
    static URI proxy(String raw) {
        if (raw == null) {
            return null;
        }
        try {
            URI u = new URI(raw.strip());
            if (u.getHost() != null) {
                return u;
            }
        } catch (Exception e) {
            // reported below, without the value (it may carry the proxy's password)
        }
        throw new IllegalArgumentException("HTTPS_PROXY is not a URL with a host, so voice is off rather than direct");
    }

    /** A copy with other waiting-room and call limits (tests use seconds where production uses minutes). */
    public VoiceSettings withLimits(Duration admissionLimit, Duration callCap) {
        return new VoiceSettings(endpoint, model, voice, transcriptionModel, proxy, profileDir, admissionLimit, callCap);
    }

    /** A copy whose browser profile lives elsewhere. */
    public VoiceSettings withProfile(Path dir) {
        return new VoiceSettings(endpoint, model, voice, transcriptionModel, proxy, dir, admission, cap);
    }
}
