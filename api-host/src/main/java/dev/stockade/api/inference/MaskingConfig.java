package dev.stockade.api.inference;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * {@code inference.masking.*}: how long the proxy waits for the PII masking of one request before treating it as
 * failed (then the policy's {@code failOpen} decides). Bounded so that a stuck scan cannot hold a call open.
 *
 * @param timeout the longest one request's masking may take; positive
 */
@ConfigurationProperties("inference.masking")
record MaskingConfig(@Bindable(defaultValue = "2s") Duration timeout) {

    MaskingConfig {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("inference.masking.timeout must be positive, got `" + timeout + "`");
        }
    }
}
