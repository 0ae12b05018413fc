package dev.stockade.api.clusters;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Bounds on the cluster proxy's upgraded streams ({@code clusters.streams.*}: exec, attach and port-forward). A stream
 * holds two connections and a slot for as long as the sandbox keeps it, so each bound stops one way of holding the
 * platform: too many streams, a stream kept open doing nothing, or one frame too large to relay in bounded memory.
 *
 * @param maxPerSandbox  open streams one sandbox may hold on this replica; the next handshake gets 429
 * @param idleTimeout    a stream with no byte either way for this long is closed
 * @param maxFrameBytes  the largest WebSocket or SPDY frame payload relayed; a larger frame closes the stream
 */
@ConfigurationProperties("clusters.streams")
public record StreamSettings(
        @Bindable(defaultValue = "8") int maxPerSandbox,
        @Bindable(defaultValue = "15m") Duration idleTimeout,
        @Bindable(defaultValue = "1048576") int maxFrameBytes) {

    public StreamSettings {
        if (maxPerSandbox < 1 || maxFrameBytes < 1024 || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("clusters.streams: max-per-sandbox must be at least 1, max-frame-bytes"
                    + " at least 1024 and idle-timeout positive");
        }
    }
}
