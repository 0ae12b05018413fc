package dev.stockade.api.connectors;

import dev.stockade.api.kernel.net.DialReach;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.List;

/**
 * How the platform dials connectors ({@code connectors.*}). A connector's URL is written by a project admin and
 * dialed by the platform, so it passes the egress proxy's SSRF guard: loopback, link-local (metadata), multicast,
 * the host's own addresses and (unless opted in here) private ranges are refused; redirects are never followed.
 *
 * @param allowLoopbackUnsafe allow connectors on loopback (tests and single-machine demos only)
 * @param allowPrivateRanges  allow connectors in private ranges for the whole install
 * @param privateHosts        host names (domain patterns) allowed to resolve to private ranges
 * @param connectTimeout      how long a dial may take
 * @param callTimeout         how long one exchange with an upstream may take, answer included
 * @param maxResponseBytes    the largest answer read from an upstream (a tool result over it is a tool error)
 * @param maxTools            the most tools one discovery keeps (an upstream listing more is refused)
 */
@ConfigurationProperties("connectors")
public record ConnectorSettings(
        @Bindable(defaultValue = "false") boolean allowLoopbackUnsafe,
        @Bindable(defaultValue = "false") boolean allowPrivateRanges,
        @Nullable List<String> privateHosts,
        @Bindable(defaultValue = "5s") Duration connectTimeout,
        @Bindable(defaultValue = "30s") Duration callTimeout,
        @Bindable(defaultValue = "4194304") int maxResponseBytes,
        @Bindable(defaultValue = "1000") int maxTools) implements DialReach {

    public ConnectorSettings {
        privateHosts = DialReach.hosts(privateHosts);
    }
}
