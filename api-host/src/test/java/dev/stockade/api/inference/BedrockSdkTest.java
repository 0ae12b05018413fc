package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.inference.TruncationEvent;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.auth.token.credentials.StaticTokenProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.auth.scheme.BedrockRuntimeAuthSchemeProvider;
import software.amazon.awssdk.services.bedrockruntime.model.BedrockRuntimeException;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.InternalServerException;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelResponse;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelWithResponseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.Message;

/**
 * The Bedrock route with the official AWS SDK for Java as its client: the sync client and the default async client
 * (which speaks HTTP/2 without TLS, prior knowledge, to an {@code http://} endpoint: the listener runs with
 * {@code micronaut.server.http-version: 2.0}, see docs/inference.md) call InvokeModel, its stream,
 * Converse and ConverseStream with the caller's platform token as a Bedrock bearer token, as
 * {@code AWS_BEARER_TOKEN_BEDROCK} makes the SDK do. The upstream double sees the installation's Bedrock API key and
 * never the token, each call is metered at the published list price, a stream cut upstream makes the SDK raise, and
 * a SigV4-signed client (no bearer token) is refused before anything leaves.
 */
@MicronautTest(transactional = false)
class BedrockSdkTest extends PlatformTest {
    /** Haiku 4.5 through a US cross-region profile: $1.10 / $5.50 per million tokens (AWS's published price). */
    static final String MODEL = "us.anthropic.claude-haiku-4-5-20251001-v1:0";
    static final long CALL_COST = (BedrockDouble.INPUT * 110 + BedrockDouble.OUTPUT * 550) / 100;
    private static final String BEDROCK_KEY = "bedrock-api-key-5d1e";

    private final BedrockDouble upstream = BedrockDouble.start();
    private String org;
    private String project;
    private String token;

    @Override
    protected Map<String, String> extraProperties() {
        return InferenceFixtures.bedrockPlatform(dataDir, BEDROCK_KEY, upstream.baseUrl());
    }

    @BeforeEach
    void world() {
        String owner = ownerToken();
        org = createOrg(owner, "bedrock-" + System.nanoTime());
        project = createProject(owner, org, "agents");
        token = agentToken(http, owner, org, project);
        upstream.received.clear();
        upstream.ending = BedrockDouble.Ending.COMPLETE;
    }

    @AfterAll
    void stopDouble() {
        upstream.close();
    }

    @Test
    void invokeModelThroughTheSyncClientIsAnsweredAndMeteredFromBedrocksHeaders() {
        try (BedrockRuntimeClient client = sync()) {
            InvokeModelResponse r = client.invokeModel(b -> b.modelId(MODEL).contentType("application/json")
                    .body(SdkBytes.fromUtf8String(anthropicBody())));
            assertThat(r.body().asUtf8String()).contains(BedrockDouble.TEXT);
            assertThat(r.sdkHttpResponse().firstMatchingHeader("X-Amzn-Bedrock-Input-Token-Count"))
                    .contains(String.valueOf(BedrockDouble.INPUT));
        }
        BedrockDouble.Received got = upstream.received.get(0);
        assertThat(got.rawPath()).isEqualTo("/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke");
        assertThat(got.header("authorization")).isEqualTo("Bearer " + BEDROCK_KEY);
        assertThat(got.headers().toString()).doesNotContain(token);
        assertThat(awaitCost()).isEqualTo(CALL_COST);
        JsonNode entry = awaitAudit(http, ownerToken(), org, "success").get(0);
        assertThat(entry.path("details").path("keySource").asText()).isEqualTo("deployment");
    }

    @Test
    void theDefaultAsyncClientStreamsInvokeModelOverH2cAndTheStreamIsMetered() throws Exception {
        StringBuilder text = new StringBuilder();
        try (BedrockRuntimeAsyncClient client = async()) {
            client.invokeModelWithResponseStream(b -> b.modelId(MODEL).contentType("application/json")
                    .body(SdkBytes.fromUtf8String(anthropicBody())), InvokeModelWithResponseStreamResponseHandler
                    .builder().subscriber(InvokeModelWithResponseStreamResponseHandler.Visitor.builder()
                            .onChunk(c -> text.append(c.bytes().asUtf8String())).build()).build())
                    .get(60, TimeUnit.SECONDS);
        }
        assertThat(text).contains("\"text\":\"Hello \"").contains("\"text\":\"from Bedrock\"").contains("message_stop");
        assertThat(awaitCost()).isEqualTo(CALL_COST);
    }

    @Test
    void streamedFramesReachTheSdkBeforeTheUpstreamHasSentTheRest() throws Exception {
        upstream.ending = BedrockDouble.Ending.WAIT_FOR_READER;
        upstream.firstFramesRead = new java.util.concurrent.CountDownLatch(1);
        StringBuilder text = new StringBuilder();
        try (BedrockRuntimeAsyncClient client = async()) {
            client.converseStream(b -> b.modelId(MODEL).messages(hi()), ConverseStreamResponseHandler.builder()
                    .subscriber(ConverseStreamResponseHandler.Visitor.builder().onContentBlockDelta(d -> {
                        text.append(d.delta().text());
                        upstream.firstFramesRead.countDown();
                    }).build()).build()).get(60, TimeUnit.SECONDS);
        }
        assertThat(upstream.readBeforeTheRest).as("the first delta reached the SDK while upstream held the rest")
                .isTrue();
        assertThat(text).hasToString(BedrockDouble.TEXT);
    }

    @Test
    void converseThroughTheSyncClientReportsAndMetersItsUsage() {
        ConverseResponse r;
        try (BedrockRuntimeClient client = sync()) {
            r = client.converse(b -> b.modelId(MODEL).messages(hi()).inferenceConfig(c -> c.maxTokens(1024)));
        }
        assertThat(r.output().message().content().get(0).text()).isEqualTo(BedrockDouble.TEXT);
        assertThat(r.usage().inputTokens()).isEqualTo((int) BedrockDouble.INPUT);
        assertThat(upstream.received.get(0).rawPath()).endsWith("%3A0/converse");
        assertThat(awaitCost()).isEqualTo(CALL_COST);
    }

    @Test
    void converseStreamThroughTheDefaultAsyncClientDeliversEveryDeltaAndItsUsage() throws Exception {
        StringBuilder text = new StringBuilder();
        int[] outputTokens = {-1};
        try (BedrockRuntimeAsyncClient client = async()) {
            client.converseStream(b -> b.modelId(MODEL).messages(hi()), ConverseStreamResponseHandler.builder()
                    .subscriber(ConverseStreamResponseHandler.Visitor.builder()
                            .onContentBlockDelta(d -> text.append(d.delta().text()))
                            .onMetadata(m -> outputTokens[0] = m.usage().outputTokens()).build()).build())
                    .get(60, TimeUnit.SECONDS);
        }
        assertThat(text).hasToString(BedrockDouble.TEXT);
        assertThat(outputTokens[0]).isEqualTo((int) BedrockDouble.OUTPUT);
        assertThat(awaitCost()).isEqualTo(CALL_COST);
    }

    @Test
    void aStreamCutUpstreamMakesTheSdkRaiseAndBillsTheUsageSeen() {
        upstream.ending = BedrockDouble.Ending.CUT_BEFORE_TERMINAL;
        try (BedrockRuntimeAsyncClient client = async()) {
            assertThatThrownBy(() -> client.invokeModelWithResponseStream(b -> b.modelId(MODEL)
                    .contentType("application/json").body(SdkBytes.fromUtf8String(anthropicBody())),
                    InvokeModelWithResponseStreamResponseHandler.builder().subscriber(
                            InvokeModelWithResponseStreamResponseHandler.Visitor.builder().build()).build())
                    .get(60, TimeUnit.SECONDS)).rootCause().isInstanceOf(InternalServerException.class)
                    .hasMessageContaining(TruncationEvent.MESSAGE);
        }
        JsonNode entry = awaitAudit(http, ownerToken(), org, "error").get(0);
        assertThat(entry.path("details").path("streamTruncated").asBoolean()).isTrue();
        // message_start's input and one output token were spent: $1.10 * 1000 + $5.50 * 1 per million, half-up
        assertThat(awaitCost()).isEqualTo(1106);
    }

    @Test
    void aSigV4SignedClientWithoutABearerTokenIsRefusedBeforeAnythingLeaves() {
        try (BedrockRuntimeClient client = BedrockRuntimeClient.builder().endpointOverride(endpoint())
                .region(Region.US_EAST_1).credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG")))
                .overrideConfiguration(o -> o.retryStrategy(s -> s.maxAttempts(1)))
                .build()) {
            assertThatThrownBy(() -> client.converse(b -> b.modelId(MODEL).messages(hi())))
                    .isInstanceOfSatisfying(BedrockRuntimeException.class,
                            e -> assertThat(e.statusCode()).isEqualTo(401));
        }
        assertThat(upstream.received).isEmpty();
    }

    private BedrockRuntimeClient sync() {
        return BedrockRuntimeClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                .tokenProvider(StaticTokenProvider.create(() -> token)).authSchemeProvider(bearerFirst())
                .overrideConfiguration(o -> o.retryStrategy(s -> s.maxAttempts(1))).build();
    }

    /** The async client with every default (Netty, HTTP/2 prior knowledge on http://), only the token and endpoint set. */
    private BedrockRuntimeAsyncClient async() {
        return BedrockRuntimeAsyncClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                .tokenProvider(StaticTokenProvider.create(() -> token)).authSchemeProvider(bearerFirst())
                .overrideConfiguration(o -> o.retryStrategy(s -> s.maxAttempts(1))).build();
    }

    /** What {@code AWS_BEARER_TOKEN_BEDROCK} makes the SDK's builder do, without a JVM-wide variable. */
    static BedrockRuntimeAuthSchemeProvider bearerFirst() {
        return BedrockRuntimeAuthSchemeProvider.defaultProvider(List.of("httpBearerAuth"));
    }

    private URI endpoint() {
        return URI.create(http.base() + "/v1/projects/" + project + "/llm/bedrock/us-east-1");
    }

    static Message hi() {
        return Message.builder().role(ConversationRole.USER).content(ContentBlock.fromText("hi")).build();
    }

    static String anthropicBody() {
        return "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":1024,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    }

    private long awaitCost() {
        String path = "/v1/orgs/" + org + "/usage-costs?groupBy=";
        Await.until("a metered call in the ledger", Await.BOUND,
                () -> http.get(path, ownerToken()).body().path("total").path("calls").asInt() >= 1);
        return new java.math.BigDecimal(http.get(path, ownerToken()).body().path("total").path("costUsd").asText())
                .movePointRight(6).longValueExact();
    }

    /** A project whose policy enables Bedrock, and an API token bound to it: what a sandbox's agent holds. */
    static String agentToken(Http http, String owner, String org, String project) {
        String policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "models",
                "managedInference", Map.of("enabled", true, "provider", "bedrock"))).text("id");
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner, Map.of("role", "MEMBER"));
        http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy, "apiTokenId", t.text("id")));
        return t.text("token");
    }

    static List<JsonNode> awaitAudit(Http http, String owner, String org, String outcome) {
        String path = "/v1/orgs/" + org + "/audit-trail?kind=inference&outcome=" + outcome;
        Await.until("an inference audit entry (" + outcome + ")", Await.BOUND,
                () -> http.get(path, owner).body().path("items").size() > 0);
        List<JsonNode> out = new java.util.ArrayList<>();
        http.get(path, owner).body().path("items").forEach(out::add);
        return out;
    }
}
