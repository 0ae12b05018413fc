package dev.stockade.api.aws;

import dev.stockade.api.kernel.net.GuardedResolver;
import dev.stockade.api.kernel.net.UrlHosts;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.proxy.dial.DialGuard;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.StsClientBuilder;

/**
 * Where the platform calls STS: checks an endpoint override when it is written (shape, scheme, an address literal the
 * guard refuses) and again at every dial, since the one HTTP client resolves names only through the SSRF guard and
 * connects to the address it checked. Builds the official SDK's STS client per connection.
 */
@Singleton
class StsEndpoints {
    private final AwsSettings settings;
    private final DialGuard guard;
    private final SdkHttpClient http;

    StsEndpoints(AwsSettings settings) {
        this.settings = settings;
        this.guard = settings.guard();
        GuardedResolver resolver = new GuardedResolver(guard);
        this.http = ApacheHttpClient.builder().dnsResolver(resolver::resolve)
                .connectionTimeout(settings.callTimeout()).socketTimeout(settings.callTimeout()).build();
    }

    /** The normalised endpoint URL, or {@code null} for none; a 400 when it cannot be an STS endpoint. */
    String check(String raw) {
        if (raw == null) {
            return null;
        }
        URI u;
        try {
            u = UrlHosts.readable(new URI(raw.strip()));
        } catch (URISyntaxException e) {
            throw ApiProblem.invalid("/stsEndpoint", "invalid-url", "`stsEndpoint` is not a URL");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(scheme.equals("http") && settings.allowPlainHttp())) {
            throw ApiProblem.invalid("/stsEndpoint", "scheme", "`stsEndpoint` must be an https URL"
                    + (scheme.equals("http") ? " (plain http is refused unless aws.allowPlainHttp is set)" : ""));
        }
        if (u.getHost() == null || u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null
                || !(u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/"))) {
            throw ApiProblem.invalid("/stsEndpoint", "invalid-url",
                    "`stsEndpoint` must be scheme://host[:port] without credentials, path, query or fragment");
        }
        String host = u.getHost().startsWith("[") ? u.getHost().substring(1, u.getHost().length() - 1) : u.getHost();
        if (host.matches("[0-9.]+") || host.contains(":")) {
            if (guard.check(host) instanceof DialGuard.Refused r) {
                throw ApiProblem.invalid("/stsEndpoint", "refused-address", "`stsEndpoint`: " + r.why());
            }
        }
        return scheme + "://" + u.getRawAuthority();
    }

    /** An STS client for one connection, signing with the platform's own source credentials. */
    StsClient client(AwsConnection c, AwsCredentialsProvider source) {
        StsClientBuilder b = StsClient.builder().httpClient(http).region(Region.of(c.region()))
                .credentialsProvider(source)
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallTimeout(settings.callTimeout()).build());
        if (c.stsEndpoint() != null) {
            b.endpointOverride(URI.create(c.stsEndpoint()));
        }
        return b.build();
    }

    @PreDestroy
    void close() {
        http.close();
    }
}
