package dev.stockade.api.aws;

import dev.stockade.api.kernel.net.DialReach;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.List;

/**
 * The AWS connection values ({@code aws.*}). An STS endpoint override is written by a project admin and dialed by the
 * platform with its own AWS credentials, so it passes the same SSRF guard as every other dial of a user's address.
 *
 * @param allowLoopbackUnsafe allow STS endpoints on loopback (tests only)
 * @param allowPrivateRanges  allow STS endpoints in private ranges (a VPC endpoint)
 * @param privateHosts        host names (domain patterns) allowed to resolve to private ranges
 * @param allowPlainHttp      allow {@code http://} STS endpoints (tests only: the signed request crosses in clear)
 * @param refreshBefore       how long before expiry cached credentials are replaced by fresh ones
 * @param callTimeout         how long one AssumeRole call may take
 */
@ConfigurationProperties("aws")
public record AwsSettings(
        @Bindable(defaultValue = "false") boolean allowLoopbackUnsafe,
        @Bindable(defaultValue = "false") boolean allowPrivateRanges,
        @Nullable List<String> privateHosts,
        @Bindable(defaultValue = "false") boolean allowPlainHttp,
        @Bindable(defaultValue = "5m") Duration refreshBefore,
        @Bindable(defaultValue = "15s") Duration callTimeout) implements DialReach {

    public AwsSettings {
        privateHosts = DialReach.hosts(privateHosts);
    }
}
