package dev.stockade.api.clusters;

import dev.stockade.api.kernel.net.DialReach;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.List;

/**
 * The cluster proxy's values ({@code clusters.*}). A cluster's API server URL is written by a project admin and
 * dialed by the platform, so it passes the same SSRF guard as the egress proxy's dials: loopback, link-local,
 * multicast, the host's own addresses and (unless allowed here) private ranges are refused.
 *
 * @param allowLoopbackUnsafe allow API servers on loopback (tests only: the platform's own listeners are there)
 * @param allowPrivateRanges  allow API servers in private ranges (clusters on the platform's own network)
 * @param privateHosts        host names (domain patterns) allowed to resolve to private ranges
 * @param allowPlainHttp      allow {@code http://} API server URLs (the request JWT would cross the network in clear)
 * @param connectTimeout      how long a dial of an API server may take
 * @param responseTimeout     how long the API server may take to answer with headers (a watch then streams on)
 */
@ConfigurationProperties("clusters")
public record ClusterSettings(
        @Bindable(defaultValue = "false") boolean allowLoopbackUnsafe,
        @Bindable(defaultValue = "false") boolean allowPrivateRanges,
        @Nullable List<String> privateHosts,
        @Bindable(defaultValue = "false") boolean allowPlainHttp,
        @Bindable(defaultValue = "10s") Duration connectTimeout,
        @Bindable(defaultValue = "60s") Duration responseTimeout) implements DialReach {

    public ClusterSettings {
        privateHosts = DialReach.hosts(privateHosts);
    }
}
