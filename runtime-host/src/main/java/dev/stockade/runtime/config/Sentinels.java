package dev.stockade.runtime.config;

import java.util.regex.Pattern;

/** Placeholder credentials the platform's proxy swaps for the real key on the wire. */
public final class Sentinels {
    private static final Pattern CRED = Pattern.compile(
            "__platform_cred:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}__");
    private static final Pattern INFERENCE = Pattern.compile("__platform_inference_key:[a-z-]+__");

    private Sentinels() {
    }

    /** Whether {@code value} is a sentinel rather than a real key (printed as is: it is not a secret). */
    public static boolean isSentinel(String value) {
        return value != null && (CRED.matcher(value).matches() || INFERENCE.matcher(value).matches());
    }
}
