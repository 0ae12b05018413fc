package dev.stockade.runtime.provider;

import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Signs Bedrock runtime requests with AWS Signature Version 4 (service {@code bedrock}) when the container has an
 * access key pair instead of a Bedrock API key: the AWS SDK's own signer, so the canonical request, the scope and
 * the payload hash are exactly what AWS computes. The secret never leaves this object (not in a log, an exception
 * or {@link #toString()}).
 */
public final class AwsSigV4 {
    private final AwsCredentialsIdentity credentials;
    private final String region;
    private final Clock clock;

    public AwsSigV4(String accessKeyId, String secretAccessKey, String region, Clock clock) {
        this.credentials = AwsCredentialsIdentity.create(accessKeyId, secretAccessKey);
        this.region = region;
        this.clock = clock;
    }

    /** The headers to send besides {@code headers}: {@code authorization}, {@code x-amz-date} and the payload hash. */
    public Map<String, String> sign(String method, String url, Map<String, String> headers, byte[] body) {
        SdkHttpRequest.Builder request = SdkHttpRequest.builder().uri(URI.create(url))
                .method(SdkHttpMethod.fromValue(method));
        headers.forEach(request::putHeader);
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials).request(request.build())
                .payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "bedrock")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, clock));
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> h : signed.request().headers().entrySet()) {
            String name = h.getKey().toLowerCase(java.util.Locale.ROOT);
            if (!name.equals("host") && !headers.containsKey(name)) {
                out.put(name, String.join(",", h.getValue()));
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "AwsSigV4[" + region + "]"; // never the key pair
    }
}
