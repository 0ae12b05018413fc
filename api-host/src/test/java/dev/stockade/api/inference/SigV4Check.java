package dev.stockade.api.inference;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Verifies a SigV4 signature the way AWS does on receipt: from the request as it arrived at this host (its own
 * address, the raw path, the headers the signature names, the body), recomputed with the same secret, the signing
 * time the request states and the AWS SDK's signer, then compared with what was sent. A signature made for another
 * host, region or service, or over other bytes, does not match.
 *
 * @param credentials the key pair the sender should have signed with
 * @param region      the region the scope must name
 */
record SigV4Check(AwsCredentialsIdentity credentials, String region) {
    private static final Pattern AUTH = Pattern.compile("AWS4-HMAC-SHA256 Credential=([^/]+)/([0-9]{8})/([^/]+)/"
            + "([^/]+)/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    /** Why the request's signature does not verify, or null when it does. */
    String problem(String base, String rawPath, Map<String, List<String>> headers, byte[] body) {
        String auth = first(headers, "authorization");
        Matcher m = auth == null ? null : AUTH.matcher(auth);
        if (m == null || !m.matches()) {
            return "no SigV4 Authorization header";
        }
        if (!m.group(1).equals(credentials.accessKeyId()) || !m.group(3).equals(region)
                || !m.group(4).equals(BedrockSigV4.SERVICE)) {
            return "scope names another key, region or service";
        }
        List<String> signedNames = Arrays.asList(m.group(5).split(";"));
        String date = first(headers, "x-amz-date");
        if (!signedNames.contains("host") || !signedNames.contains("x-amz-date") || date == null) {
            return "host or x-amz-date unsigned";
        }
        SdkHttpRequest.Builder request = SdkHttpRequest.builder().uri(URI.create(base + rawPath))
                .method(SdkHttpMethod.POST);
        for (String name : signedNames) {
            if (!name.equals("host")) {
                headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                        .flatMap(e -> e.getValue().stream()).forEach(v -> request.appendHeader(name, v));
            }
        }
        Instant at = AMZ_DATE.parse(date, Instant::from);
        String expected = AwsV4HttpSigner.create().sign(r -> r.identity(credentials).request(request.build())
                        .payload(ContentStreamProvider.fromByteArray(body))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, BedrockSigV4.SERVICE)
                        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                        .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)))
                .request().firstMatchingHeader("Authorization").orElse("");
        return expected.equals(auth) ? null : "signature does not match the request as received";
    }

    private static String first(Map<String, List<String>> headers, String name) {
        return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .flatMap(e -> e.getValue().stream()).findFirst().orElse(null);
    }
}
