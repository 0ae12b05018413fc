package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.token.credentials.StaticTokenProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.document.Document;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.CitationsContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.DocumentFormat;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelWithResponseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import software.amazon.awssdk.services.bedrockruntime.model.ReasoningContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ReasoningContentBlockDelta;
import software.amazon.awssdk.services.bedrockruntime.model.ReasoningTextBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ToolResultContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ToolUseBlock;

/**
 * PII masking on the Bedrock route, with the AWS SDK for Java as the client and the Bedrock double echoing the text it
 * was sent, five characters per delta frame, so every placeholder is split across frames: InvokeModel and Converse
 * answers come back restored whole, InvokeModelWithResponseStream and ConverseStream come back restored through
 * re-encoded event-stream frames the SDK accepts, the double never sees a masked value, and each stream is metered
 * at the published list price. Converse reasoning is signed: it comes back with its placeholders, and sent back in a
 * tool-use loop it reaches Bedrock exactly as Bedrock wrote it. A citation of the caller's document comes back
 * restored and goes back masked with the document's placeholders.
 */
@MicronautTest(transactional = false)
class BedrockMaskingTest extends PlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROMPT = LlmMaskingTest.PROMPT;

    private final BedrockDouble upstream = BedrockDouble.start();
    private String org;
    private String project;
    private String token;

    @Override
    protected Map<String, String> extraProperties() {
        return InferenceFixtures.bedrockPlatform(dataDir, "bedrock-api-key-masking", upstream.baseUrl());
    }

    @BeforeEach
    void world() {
        String owner = ownerToken();
        org = createOrg(owner, "bedrock-mask-" + System.nanoTime());
        project = createProject(owner, org, "agents");
        String policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "models",
                "managedInference", Map.of("enabled", true, "provider", "bedrock"), "piiMasking",
                Map.of("types", List.of("EMAIL", "PHONE", "CREDIT_CARD", "ADDRESS"), "unmaskResponses", true)))
                .text("id");
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner, Map.of("role", "MEMBER"));
        http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", policy, "apiTokenId", t.text("id")));
        token = t.text("token");
        upstream.received.clear();
        upstream.echo = true;
        upstream.toolUse = false;
        upstream.reasoning = false;
        upstream.citations = false;
    }

    @AfterAll
    void stopDouble() {
        upstream.close();
    }

    @Test
    void invokeModelAndConverseWholeAnswersAreRestored() throws IOException {
        String body = anthropicBody();
        try (BedrockRuntimeClient client = sync()) {
            String invoked = client.invokeModel(b -> b.modelId(BedrockSdkTest.MODEL).contentType("application/json")
                    .body(SdkBytes.fromUtf8String(body))).body().asUtf8String();
            assertThat(JSON.readTree(invoked).path("content").get(0).path("text").asText()).isEqualTo(PROMPT);
            String conversed = client.converse(b -> b.modelId(BedrockSdkTest.MODEL).messages(prompt()))
                    .output().message().content().get(0).text();
            assertThat(conversed).isEqualTo(PROMPT);
        }
        assertThat(upstream.received).hasSize(2);
        upstream.received.forEach(this::sentMasked);
    }

    @Test
    void invokeModelWithResponseStreamIsRestoredAcrossChunksAndMeteredAtItsPrice() throws Exception {
        StringBuilder text = new StringBuilder();
        String body = anthropicBody();
        try (BedrockRuntimeAsyncClient client = async()) {
            client.invokeModelWithResponseStream(b -> b.modelId(BedrockSdkTest.MODEL).contentType("application/json")
                    .body(SdkBytes.fromUtf8String(body)), InvokeModelWithResponseStreamResponseHandler
                    .builder().subscriber(InvokeModelWithResponseStreamResponseHandler.Visitor.builder()
                            .onChunk(c -> text.append(deltaText(c.bytes().asByteArray()))).build()).build())
                    .get(60, TimeUnit.SECONDS);
        }
        assertThat(text).hasToString(PROMPT);
        sentMasked(upstream.received.get(0));
        assertThat(awaitCost()).isEqualTo(BedrockSdkTest.CALL_COST);
    }

    @Test
    void converseStreamIsRestoredAcrossDeltasAndMeteredAtItsPrice() throws Exception {
        StringBuilder text = new StringBuilder();
        int[] outputTokens = {-1};
        try (BedrockRuntimeAsyncClient client = async()) {
            client.converseStream(b -> b.modelId(BedrockSdkTest.MODEL).messages(prompt()),
                    ConverseStreamResponseHandler.builder().subscriber(ConverseStreamResponseHandler.Visitor.builder()
                            .onContentBlockDelta(d -> text.append(d.delta().text()))
                            .onMetadata(m -> outputTokens[0] = m.usage().outputTokens()).build()).build())
                    .get(60, TimeUnit.SECONDS);
        }
        assertThat(text).hasToString(PROMPT);
        assertThat(outputTokens[0]).isEqualTo((int) BedrockDouble.OUTPUT);
        sentMasked(upstream.received.get(0));
        assertThat(awaitCost()).isEqualTo(BedrockSdkTest.CALL_COST);
    }

    @Test
    void converseToolUseInputIsRestoredAsJsonWholeAndStreamedAndMeteredAtItsPrice() throws Exception {
        upstream.toolUse = true;
        String prompt = ToolCallMaskingTest.PROMPT;
        try (BedrockRuntimeClient client = sync()) {
            ContentBlock block = client.converse(b -> b.modelId(BedrockSdkTest.MODEL).messages(prompt(prompt)))
                    .output().message().content().get(0);
            assertThat(block.toolUse().input().asMap().get("note").asString()).isEqualTo(prompt);
        }
        StringBuilder input = new StringBuilder();
        try (BedrockRuntimeAsyncClient client = async()) {
            client.converseStream(b -> b.modelId(BedrockSdkTest.MODEL).messages(prompt(prompt)),
                    ConverseStreamResponseHandler.builder().subscriber(ConverseStreamResponseHandler.Visitor.builder()
                            .onContentBlockDelta(d -> input.append(d.delta().toolUse().input())).build()).build())
                    .get(60, TimeUnit.SECONDS);
        }
        // the double streamed the input's JSON five characters per frame: the caller's tab must come back escaped
        assertThat(JSON.readTree(input.toString()).path("note").asText()).isEqualTo(prompt);
        assertThat(upstream.received).hasSize(2);
        upstream.received.forEach(got -> assertThat(new String(got.body(), StandardCharsets.UTF_8))
                .contains("[ADDRESS_").doesNotContain("Baker"));
        upstream.received.forEach(this::sentMasked);
        assertThat(awaitCost(2)).isEqualTo(2 * BedrockSdkTest.CALL_COST);
    }

    @Test
    void aWholeConverseReasoningKeepsItsPlaceholdersAndGoesBackAsBedrockSentIt() throws IOException {
        upstream.reasoning = true;
        try (BedrockRuntimeClient client = sync()) {
            Message answer = client.converse(b -> b.modelId(BedrockSdkTest.MODEL).messages(prompt())).output()
                    .message();
            String thought = sentText(upstream.received.get(0));
            ReasoningTextBlock reasoning = answer.content().get(0).reasoningContent().reasoningText();
            assertThat(reasoning.text()).isEqualTo(thought);
            assertThat(reasoning.signature()).isEqualTo(ToolAnswers.SIGNATURE);
            assertThat(answer.content().get(1).text()).isEqualTo(PROMPT);
            ToolUseBlock call = answer.content().get(2).toolUse();
            assertThat(call.input().asMap().get("note").asString()).isEqualTo(PROMPT);
            client.converse(b -> b.modelId(BedrockSdkTest.MODEL).messages(prompt(), answer,
                    toolResult(call.toolUseId())));
            reasoningWentBackAsSent(thought);
        }
    }

    @Test
    void aStreamedConverseReasoningKeepsItsPlaceholdersAndGoesBackAsBedrockSentIt() throws Exception {
        upstream.reasoning = true;
        StringBuilder reasoning = new StringBuilder();
        StringBuilder signature = new StringBuilder();
        StringBuilder text = new StringBuilder();
        StringBuilder input = new StringBuilder();
        try (BedrockRuntimeAsyncClient client = async()) {
            client.converseStream(b -> b.modelId(BedrockSdkTest.MODEL).messages(prompt()),
                    ConverseStreamResponseHandler.builder().subscriber(ConverseStreamResponseHandler.Visitor.builder()
                            .onContentBlockDelta(d -> {
                                ReasoningContentBlockDelta r = d.delta().reasoningContent();
                                reasoning.append(r == null || r.text() == null ? "" : r.text());
                                signature.append(r == null || r.signature() == null ? "" : r.signature());
                                text.append(d.delta().text() == null ? "" : d.delta().text());
                                input.append(d.delta().toolUse() == null ? "" : d.delta().toolUse().input());
                            }).build()).build()).get(60, TimeUnit.SECONDS);
        }
        String thought = sentText(upstream.received.get(0));
        assertThat(reasoning).hasToString(thought);
        assertThat(signature).hasToString(ToolAnswers.SIGNATURE);
        assertThat(text).hasToString(PROMPT);
        String note = JSON.readTree(input.toString()).path("note").asText();
        assertThat(note).isEqualTo(PROMPT);
        Message answer = Message.builder().role(ConversationRole.ASSISTANT).content(
                ContentBlock.fromReasoningContent(ReasoningContentBlock.fromReasoningText(r -> r
                        .text(reasoning.toString()).signature(signature.toString()))),
                ContentBlock.fromText(text.toString()),
                ContentBlock.fromToolUse(t -> t.toolUseId("tooluse_1").name(ToolAnswers.TOOL)
                        .input(Document.fromMap(Map.of("note", Document.fromString(note)))))).build();
        try (BedrockRuntimeClient client = sync()) {
            client.converse(b -> b.modelId(BedrockSdkTest.MODEL).messages(prompt(), answer, toolResult("tooluse_1")));
        }
        reasoningWentBackAsSent(thought);
    }

    @Test
    void aConverseCitationComesBackRestoredAndGoesBackMaskedLikeItsDocument() throws IOException {
        upstream.citations = true;
        Message ask = Message.builder().role(ConversationRole.USER).content(ContentBlock.fromDocument(d -> d
                .format(DocumentFormat.TXT).name("roster").source(s -> s.text(PROMPT)).citations(c -> c.enabled(true))),
                ContentBlock.fromText("Whom do I write to?")).build();
        try (BedrockRuntimeClient client = sync()) {
            Message answer = client.converse(b -> b.modelId(BedrockSdkTest.MODEL).messages(ask)).output().message();
            CitationsContentBlock cited = answer.content().get(0).citationsContent();
            assertThat(cited.content().get(0).text()).isEqualTo(PROMPT);
            assertThat(cited.citations().get(0).sourceContent().get(0).text()).isEqualTo(PROMPT);
            client.converse(b -> b.modelId(BedrockSdkTest.MODEL).messages(ask, answer, prompt("Thanks")));
        }
        assertThat(upstream.received).hasSize(2);
        upstream.received.forEach(this::sentMasked);
        JsonNode next = JSON.readTree(upstream.received.get(1).body());
        String document = next.at("/messages/0/content/0/document/source/text").asText();
        JsonNode back = next.at("/messages/1/content/0/citationsContent");
        JsonNode span = back.at("/citations/0/location/documentChar");
        assertThat(back.at("/citations/0/sourceContent/0/text").asText()).as("the masked document's span")
                .isEqualTo(document.substring(span.path("start").asInt(), span.path("end").asInt()));
        assertThat(back.at("/content/0/text").asText()).isEqualTo(document);
    }

    /**
     * The second request, the assistant turn sent back with a tool result, reached Bedrock with the reasoning exactly
     * as Bedrock wrote it (text and signature) and no value anywhere.
     */
    private void reasoningWentBackAsSent(String thought) throws IOException {
        assertThat(upstream.received).hasSize(2);
        BedrockDouble.Received next = upstream.received.get(1);
        JsonNode sentBack = JSON.readTree(next.body()).at("/messages/1/content/0/reasoningContent/reasoningText");
        assertThat(sentBack.path("text").asText()).isEqualTo(thought);
        assertThat(new String(next.body(), StandardCharsets.UTF_8)).as("the signature, byte for byte")
                .contains("\"signature\":\"" + ToolAnswers.SIGNATURE + "\"");
        upstream.received.forEach(this::sentMasked);
    }

    /** The text of the last message Bedrock received: what the double echoes. */
    private static String sentText(BedrockDouble.Received got) throws IOException {
        return EchoText.lastMessage(JSON.readTree(got.body()).path("messages"));
    }

    private static Message toolResult(String toolUseId) {
        return Message.builder().role(ConversationRole.USER).content(ContentBlock.fromToolResult(r -> r
                .toolUseId(toolUseId).content(ToolResultContentBlock.fromText("sent")))).build();
    }

    /** The request reached Bedrock with placeholders and none of the values. */
    private void sentMasked(BedrockDouble.Received got) {
        String sent = new String(got.body(), StandardCharsets.UTF_8);
        assertThat(sent).contains("[EMAIL_", "[PHONE_", "[CREDIT_CARD_");
        LlmMaskingTest.VALUES.forEach(v -> assertThat(sent).doesNotContain(v));
    }

    /** The text of an Anthropic stream event the SDK handed over, when it is a text delta. */
    private static String deltaText(byte[] event) {
        try {
            JsonNode e = JSON.readTree(event);
            return e.path("type").asText().equals("content_block_delta") ? e.path("delta").path("text").asText() : "";
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String anthropicBody() throws IOException {
        return "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":1024,\"messages\":[{\"role\":\"user\","
                + "\"content\":" + JSON.writeValueAsString(PROMPT) + "}]}";
    }

    private static Message prompt() {
        return prompt(PROMPT);
    }

    private static Message prompt(String text) {
        return Message.builder().role(ConversationRole.USER).content(ContentBlock.fromText(text)).build();
    }

    private BedrockRuntimeClient sync() {
        return BedrockRuntimeClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                .tokenProvider(StaticTokenProvider.create(() -> token)).authSchemeProvider(BedrockSdkTest.bearerFirst())
                .overrideConfiguration(o -> o.retryStrategy(s -> s.maxAttempts(1))).build();
    }

    private BedrockRuntimeAsyncClient async() {
        return BedrockRuntimeAsyncClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                .tokenProvider(StaticTokenProvider.create(() -> token)).authSchemeProvider(BedrockSdkTest.bearerFirst())
                .overrideConfiguration(o -> o.retryStrategy(s -> s.maxAttempts(1))).build();
    }

    private URI endpoint() {
        return URI.create(http.base() + "/v1/projects/" + project + "/llm/bedrock/us-east-1");
    }

    private long awaitCost() {
        return awaitCost(1);
    }

    private long awaitCost(int calls) {
        String path = "/v1/orgs/" + org + "/usage-costs?groupBy=";
        Await.until("metered calls in the ledger", Await.BOUND,
                () -> http.get(path, ownerToken()).body().path("total").path("calls").asInt() >= calls);
        return new java.math.BigDecimal(http.get(path, ownerToken()).body().path("total").path("costUsd").asText())
                .movePointRight(6).longValueExact();
    }
}
