package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.auth.token.credentials.StaticTokenProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.BedrockRuntimeException;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelResponse;

/**
 * Bedrock without any API key, with {@code inference.bedrock.ambient-credentials}: the proxy re-signs each call with
 * SigV4 for the upstream host using the AWS SDK's signer and the platform's own AWS credentials (here a fixed key
 * pair in place of the default chain), and the upstream double recomputes the signature from what it received, as
 * AWS does. The organization's provider listing names the key source {@code ambient}.
 */
@MicronautTest(transactional = false)
class BedrockAmbientTest extends PlatformTest {
    private static final String ACCESS_KEY = "AKIAPLATFORMEXAMPLE";
    private static final String SECRET_KEY = "platform/secret/key/for/tests/only0000";

    private final BedrockDouble upstream = BedrockDouble.start();
    private String org;
    private String project;
    private String token;

    private static final AwsCredentialsProvider FIXED =
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
    /** What the platform's chain yields in this test: the fixed pair, or the real environment provider (empty here). */
    private static volatile AwsCredentialsProvider platformCredentials = FIXED;

    /** The platform's AWS credentials for this test, where production has the default chain. */
    @Factory
    @Requires(property = "test.bedrock.fixed-aws-credentials", value = "true")
    static class FixedCredentials {
        @Singleton
        @Named(AmbientAwsCredentials.CHAIN)
        @Replaces(bean = DefaultCredentialsProvider.class, factory = AmbientAwsCredentials.Chain.class)
        AwsCredentialsProvider fixed() {
            return () -> platformCredentials.resolveCredentials();
        }
    }

    @Override
    protected Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>();
        p.put("test.bedrock.fixed-aws-credentials", "true");
        p.put("inference.allow-loopback-unsafe", "true");
        p.put("inference.bedrock.enabled", "true");
        p.put("inference.bedrock.base-url", upstream.baseUrl());
        p.put("inference.bedrock.ambient-credentials", "true");
        return p;
    }

    @BeforeEach
    void world() {
        String owner = ownerToken();
        org = createOrg(owner, "ambient-" + System.nanoTime());
        project = createProject(owner, org, "agents");
        token = BedrockSdkTest.agentToken(http, owner, org, project);
        upstream.received.clear();
        platformCredentials = FIXED;
        upstream.signatures = new SigV4Check(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY), "us-east-1");
    }

    @AfterAll
    void stopDouble() {
        upstream.close();
    }

    @Test
    void aCallWithoutAKeyIsSignedForTheUpstreamHostAndVerifiesThere() {
        try (BedrockRuntimeClient client = sync()) {
            InvokeModelResponse r = client.invokeModel(b -> b.modelId(BedrockSdkTest.MODEL)
                    .contentType("application/json").body(SdkBytes.fromUtf8String(BedrockSdkTest.anthropicBody())));
            assertThat(r.body().asUtf8String()).contains(BedrockDouble.TEXT);
        }
        BedrockDouble.Received got = upstream.received.get(0);
        assertThat(got.signatureProblem()).isNull();
        assertThat(got.header("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=" + ACCESS_KEY + "/")
                .contains("/us-east-1/bedrock/aws4_request");
        assertThat(got.headers().toString()).doesNotContain(token).doesNotContain(SECRET_KEY);
        JsonNode entry = BedrockSdkTest.awaitAudit(http, ownerToken(), org, "success").get(0);
        assertThat(entry.path("details").path("keySource").asText()).isEqualTo("ambient");
    }

    @Test
    void aSignatureMadeForAnotherSecretDoesNotVerifyAtTheDouble() {
        // the check is a real verifier: with another secret the same request is refused
        upstream.signatures = new SigV4Check(AwsBasicCredentials.create(ACCESS_KEY, "another-secret"), "us-east-1");
        try (BedrockRuntimeClient client = sync()) {
            assertThatThrownBy(() -> client.converse(b -> b.modelId(BedrockSdkTest.MODEL)
                    .messages(BedrockSdkTest.hi()))).isInstanceOfSatisfying(BedrockRuntimeException.class,
                            e -> assertThat(e.statusCode()).isEqualTo(403));
        }
        assertThat(upstream.received.get(0).signatureProblem()).contains("does not match");
    }

    @Test
    void withoutAnyCredentialsFoundTheCallIsRefusedAndNothingLeavesUnsigned() {
        assertThat(System.getenv("AWS_ACCESS_KEY_ID")).as("this machine has no AWS credentials").isNull();
        platformCredentials = EnvironmentVariableCredentialsProvider.create();
        try (BedrockRuntimeClient client = sync()) {
            assertThatThrownBy(() -> client.converse(b -> b.modelId(BedrockSdkTest.MODEL)
                    .messages(BedrockSdkTest.hi()))).isInstanceOfSatisfying(BedrockRuntimeException.class,
                            e -> assertThat(e.statusCode()).isEqualTo(404));
        }
        assertThat(upstream.received).isEmpty();
    }

    @Test
    void converseIsSignedOverItsBodyAndAnswered() {
        ConverseResponse r;
        try (BedrockRuntimeClient client = sync()) {
            r = client.converse(b -> b.modelId(BedrockSdkTest.MODEL).messages(BedrockSdkTest.hi()));
        }
        assertThat(r.output().message().content().get(0).text()).isEqualTo(BedrockDouble.TEXT);
        assertThat(upstream.received.get(0).signatureProblem()).isNull();
    }

    @Test
    void theOrganizationsProviderListingNamesTheAmbientSource() {
        JsonNode providers = http.get("/v1/orgs/" + org + "/inference/providers", ownerToken()).body();
        JsonNode bedrock = null;
        for (JsonNode p : providers.path("providers")) {
            if (p.path("provider").asText().equals("bedrock")) {
                bedrock = p;
            }
        }
        assertThat(bedrock).isNotNull();
        assertThat(bedrock.path("available").asBoolean()).isTrue();
        assertThat(bedrock.path("keySource").asText()).isEqualTo("ambient");
        assertThat(providers.path("defaultProvider").asText()).isEqualTo("bedrock");
    }

    private BedrockRuntimeClient sync() {
        return BedrockRuntimeClient.builder()
                .endpointOverride(URI.create(http.base() + "/v1/projects/" + project + "/llm/bedrock/us-east-1"))
                .region(Region.US_EAST_1).tokenProvider(StaticTokenProvider.create(() -> token))
                .authSchemeProvider(BedrockSdkTest.bearerFirst())
                .overrideConfiguration(o -> o.retryStrategy(s -> s.maxAttempts(1))).build();
    }
}
