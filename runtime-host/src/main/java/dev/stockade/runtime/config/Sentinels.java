package dev.stockade.runtime.config;

import dev.stockade.policy.model.CredentialPlaceholder;
import java.util.regex.Pattern;

/** Placeholder credentials the platform's proxy swaps for the real key on the wire. */
public final class Sentinels {
    private static final Pattern INFERENCE = Pattern.compile("__platform_inference_key:[a-z-]+__");

    private Sentinels() {
    }

    /**
     * Whether {@code value} is a sentinel rather than a real key (printed as is: it is not a secret): a credential
     * placeholder in the core's one format ({@link CredentialPlaceholder}) or a managed-inference key placeholder.
     */
    public static boolean isSentinel(String value) {
        return value != null && (CredentialPlaceholder.parse(value).isPresent() || INFERENCE.matcher(value).matches());
    }
}
