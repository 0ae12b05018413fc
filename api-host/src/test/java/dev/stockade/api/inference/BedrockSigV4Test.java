package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;

/**
 * The proxy's SigV4 re-signing on its own: what it signs, and that an independent verifier (the SDK's signer run
 * over the request as a server would receive it) accepts it for the upstream host and rejects it for another host
 * or another body.
 */
class BedrockSigV4Test {
    private static final AwsBasicCredentials KEYS = AwsBasicCredentials.create("AKIDEXAMPLE", "wJalrXUtnFEMIEXAMPLE");
    private static final Clock AT = Clock.fixed(Instant.parse("2026-11-27T08:00:00Z"), ZoneOffset.UTC);
    private static final String UPSTREAM = "https://bedrock-runtime.eu-west-1.amazonaws.com";
    private static final String PATH = "/model/anthropic.claude-haiku-4-5-20251001-v1%3A0/converse";
    private static final byte[] BODY = "{\"messages\":[]}".getBytes(StandardCharsets.UTF_8);

    @Test
    void theSignatureCoversTheUpstreamHostTheBodyAndTheCallsHeadersOnly() {
        HttpPost out = request();
        BedrockSigV4.sign(out, "eu-west-1", KEYS, AT);
        String auth = out.getFirstHeader("Authorization").getValue();
        assertThat(auth).startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261127/eu-west-1/bedrock/aws4_request");
        List<String> signed = Arrays.asList(auth.replaceAll(".*SignedHeaders=([^,]+),.*", "$1").split(";"));
        assertThat(signed).contains("host", "x-amz-date", "content-type", "x-amzn-bedrock-guardrailidentifier")
                .doesNotContain("user-agent", "accept-encoding");
        assertThat(new SigV4Check(KEYS, "eu-west-1").problem(UPSTREAM, PATH, received(out), BODY)).isNull();
    }

    @Test
    void theVerifierRejectsTheSameSignatureForAnotherHostOrAnotherBody() {
        HttpPost out = request();
        BedrockSigV4.sign(out, "eu-west-1", KEYS, AT);
        SigV4Check check = new SigV4Check(KEYS, "eu-west-1");
        assertThat(check.problem("http://127.0.0.1:8080", PATH, received(out), BODY)).contains("does not match");
        assertThat(check.problem(UPSTREAM, PATH, received(out), "{}".getBytes(StandardCharsets.UTF_8)))
                .contains("does not match");
        assertThat(new SigV4Check(KEYS, "us-east-1").problem(UPSTREAM, PATH, received(out), BODY))
                .contains("scope");
    }

    private static HttpPost request() {
        HttpPost out = new HttpPost(UPSTREAM + PATH);
        out.setHeader("Content-Type", "application/json");
        out.setHeader("X-Amzn-Bedrock-GuardrailIdentifier", "gr-1");
        out.setHeader("User-Agent", "aws-sdk-java/2.40.2");
        out.setHeader("Accept-Encoding", "identity");
        out.setEntity(new ByteArrayEntity(BODY, ContentType.APPLICATION_JSON));
        return out;
    }

    /** The headers as a server receives them, with the Host the client derives from the URL. */
    private static Map<String, List<String>> received(HttpPost out) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Host", List.of("bedrock-runtime.eu-west-1.amazonaws.com"));
        for (Header h : out.getHeaders()) {
            headers.computeIfAbsent(h.getName(), k -> new java.util.ArrayList<>()).add(h.getValue());
        }
        return headers;
    }
}
