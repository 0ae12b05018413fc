package dev.stockade.api.kernel.net;

import dev.stockade.proxy.dial.DialGuard;
import io.micronaut.core.annotation.Nullable;
import java.util.List;
import java.util.Map;

/**
 * What a dial of an address a user wrote (a connector, a cluster's API server) may reach, as each feature's settings
 * configure it under its own prefix: one reading of those options into the egress proxy's {@link DialGuard}, so the
 * features cannot drift apart on what "private ranges allowed" means.
 */
public interface DialReach {
    /** Whether loopback may be dialed (tests and single-machine demos only: the platform's own listeners are there). */
    boolean allowLoopbackUnsafe();

    /** Whether private ranges may be dialed for the whole install. */
    boolean allowPrivateRanges();

    /** Host names (domain patterns) allowed to resolve to private ranges; never null. */
    List<String> privateHosts();

    /** The guard every such dial passes. */
    default DialGuard guard() {
        return new DialGuard(allowLoopbackUnsafe(), allowPrivateRanges(), privateHosts(), List.of(), Map.of());
    }

    /** The configured private hosts as an immutable list ({@code null}, none configured: empty). */
    static List<String> hosts(@Nullable List<String> configured) {
        return configured == null ? List.of() : List.copyOf(configured);
    }
}
