package dev.stockade.runtime.config;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * The voice (realtime) endpoint and credential, resolved independently of LLM_PROVIDER in runtime.md's
 * order: an explicit OPENAI_REALTIME_URL with its own key, then the platform's managed OpenAI base
 * URL, then the vendor's public endpoint with OPENAI_API_KEY.
 *
 * @param url the WebSocket URL, {@code null} when no credential resolves (meeting tools do not register)
 * @param apiKey the bearer credential (may be a sentinel)
 * @param step which of the three steps supplied it (1-3), 0 for none
 */
public record VoiceEndpoint(String url, String apiKey, int step) {
    /** The vendor's public realtime endpoint. */
    public static final String PUBLIC_URL = "wss://api.openai.com/v1/realtime";
    private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]", "::1");

    /** Whether a voice call can be placed. */
    public boolean available() {
        return url != null && apiKey != null && !apiKey.isBlank();
    }

    static VoiceEndpoint resolve(Settings s, List<String> problems) {
        String explicit = s.nonBlank("OPENAI_REALTIME_URL");
        if (explicit != null) {
            checkRealtimeUrl(explicit, problems);
            // An explicit endpoint never borrows the managed or public key.
            String key = s.nonBlank("OPENAI_REALTIME_API_KEY");
            return key == null ? new VoiceEndpoint(null, null, 0) : new VoiceEndpoint(explicit, key, 1);
        }
        String managed = s.nonBlank("PLATFORM_INFERENCE_OPENAI_BASE_URL");
        String managedKey = s.nonBlank("PLATFORM_INFERENCE_OPENAI_API_KEY");
        if (managed != null && managedKey != null) {
            URI u = RuntimeConfig.httpUrl("PLATFORM_INFERENCE_OPENAI_BASE_URL", managed, problems);
            if (u == null) {
                return new VoiceEndpoint(null, null, 0);
            }
            String scheme = u.getScheme().equalsIgnoreCase("https") ? "wss" : "ws";
            String rest = Settings.stripSlash(managed.substring(managed.indexOf("://")));
            return new VoiceEndpoint(scheme + rest + "/realtime", managedKey, 2);
        }
        String publicKey = s.nonBlank("OPENAI_API_KEY");
        return publicKey == null ? new VoiceEndpoint(null, null, 0) : new VoiceEndpoint(PUBLIC_URL, publicKey, 3);
    }

    private static void checkRealtimeUrl(String value, List<String> problems) {
        URI u;
        try {
            u = new URI(value);
        } catch (Exception e) {
            problems.add("OPENAI_REALTIME_URL: " + Redaction.quote("OPENAI_REALTIME_URL", value) + " is not a URL");
            return;
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        String host = u.getHost() == null ? "" : u.getHost().toLowerCase(Locale.ROOT);
        if (scheme.equals("wss") && !host.isEmpty()) {
            return;
        }
        if (scheme.equals("ws") && LOOPBACK.contains(host)) {
            return;
        }
        problems.add("OPENAI_REALTIME_URL: " + Redaction.quote("OPENAI_REALTIME_URL", value) + " must be wss:// (plain ws:// only for localhost, "
                + "127.0.0.1 and [::1])");
    }
}
