package dev.stockade.api.aws;

import dev.stockade.api.kernel.net.EndpointUrls;
import dev.stockade.api.kernel.net.GuardedResolver;
import dev.stockade.proxy.dial.DialGuard;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
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
        URI u = EndpointUrls.check(raw, "stsEndpoint", "aws.allowPlainHttp", settings.allowPlainHttp(), false, guard);
        String scheme = u.getScheme().toLowerCase(Locale.ROOT);
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
