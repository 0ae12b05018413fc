package dev.stockade.api.sandbox;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the platform adds to a sandbox's env plan before a provisioner runs it: {@code PLATFORM_API_URL}, the platform
 * as this sandbox reaches it, the plan's managed-inference base URLs written out over it (an SDK reads its base URL
 * as is, without a shell to expand {@code ${PLATFORM_API_URL}}), and in each
 * {@code PLATFORM_INFERENCE_<P>_API_KEY} the sandbox's own token in place of the plan's marker. The token is what the
 * {@code /llm} routes know the sandbox by; it is not a provider key, which never leaves the platform.
 */
final class PlatformEnv {
    static final String API_URL = "PLATFORM_API_URL";
    private static final Pattern INFERENCE_KEY = Pattern.compile("PLATFORM_INFERENCE_[A-Z_]+_API_KEY");
    private static final Pattern INFERENCE_URL = Pattern.compile("PLATFORM_INFERENCE_[A-Z_]+_BASE_URL");
    private static final String TEMPLATE = "${" + API_URL + "}";
    private static final Pattern MARKER = Pattern.compile("__platform_inference_key:[a-z-]+__");

    private PlatformEnv() {
    }

    static Map<String, String> of(Map<String, String> plan, String platformApiUrl, String sandboxToken) {
        Map<String, String> env = new LinkedHashMap<>(plan);
        env.put(API_URL, platformApiUrl);
        env.replaceAll((k, v) -> {
            if (INFERENCE_KEY.matcher(k).matches() && MARKER.matcher(v).matches()) {
                return sandboxToken;
            }
            return INFERENCE_URL.matcher(k).matches() ? v.replace(TEMPLATE, platformApiUrl) : v;
        });
        return env;
    }
}
