package dev.stockade.api.inference;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpRequest;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Re-signs a Bedrock runtime call with AWS Signature Version 4 for the upstream host, when the installation reaches
 * Bedrock with ambient AWS credentials instead of an API key: a caller's signature (if any) covered the platform's
 * host, so it could never pass upstream. The AWS SDK's own signer computes the canonical request, the scope and the
 * payload hash, exactly as AWS verifies them; nothing here is hand-written SigV4.
 */
final class BedrockSigV4 {
    /** The signing name of the Bedrock runtime ({@code bedrock-runtime.{region}.amazonaws.com} signs as it). */
    static final String SERVICE = "bedrock";

    private BedrockSigV4() {
    }

    /**
     * Signs {@code out} (its URI, body and the headers that describe the call) for {@code region} and sets the
     * signature's headers on it. Only headers that nothing between here and the wire rewrites are signed, so the
     * request that leaves is the request that was signed.
     */
    static void sign(HttpRequest out, String region, AwsCredentialsIdentity credentials, Clock clock) {
        SdkHttpRequest.Builder unsigned;
        try {
            unsigned = SdkHttpRequest.builder().uri(out.getUri()).method(SdkHttpMethod.fromValue(out.getMethod()));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the upstream URL cannot be signed: " + e.getReason(), e);
        }
        for (Header h : out.getHeaders()) {
            if (signed(h.getName())) {
                unsigned.appendHeader(h.getName(), h.getValue());
            }
        }
        byte[] body = body(out);
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials).request(unsigned.build())
                .payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, SERVICE)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, clock));
        for (Map.Entry<String, List<String>> h : signed.request().headers().entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (!name.equals("host") && !signed(name)) {
                out.setHeader(h.getKey(), String.join(",", h.getValue()));
            }
        }
    }

    /** The caller's headers that cross and are signed: what the call is; never hop-by-hop or client-identifying. */
    private static boolean signed(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.equals("content-type") || n.equals("accept") || n.startsWith("x-amzn-bedrock-");
    }

    private static byte[] body(HttpRequest out) {
        if (!(out instanceof org.apache.hc.core5.http.HttpEntityContainer container)
                || container.getEntity() == null) {
            return new byte[0];
        }
        HttpEntity entity = container.getEntity();
        if (!entity.isRepeatable()) {
            throw new IllegalStateException("a signed request's body must be repeatable");
        }
        try (InputStream in = entity.getContent()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
