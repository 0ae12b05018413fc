package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Path tails of the spec's /llm/* routes pick the wire format; other paths are not metered calls. */
class WireRouteTest {

    @Test
    void anthropicAndOpenAiPaths() {
        assertThat(WireFormat.fromPathTail("v1/messages")).contains(WireFormat.ANTHROPIC_MESSAGES);
        assertThat(WireFormat.fromPathTail("/v1/messages?beta=true")).contains(WireFormat.ANTHROPIC_MESSAGES);
        assertThat(WireFormat.fromPathTail("v1/chat/completions")).contains(WireFormat.OPENAI_CHAT);
        assertThat(WireFormat.fromPathTail("chat/completions")).contains(WireFormat.OPENAI_CHAT);
        assertThat(WireFormat.fromPathTail("openai/v1/chat/completions")).contains(WireFormat.OPENAI_CHAT);
        assertThat(WireFormat.fromPathTail("v1/responses")).contains(WireFormat.OPENAI_RESPONSES);
        assertThat(WireFormat.fromPathTail("v1/embeddings/")).contains(WireFormat.OPENAI_EMBEDDINGS);
    }

    @Test
    void pathsThatAreNotMeteredCalls() {
        for (String tail : new String[] {"v1/models", "v1/messages/count_tokens", "v1/responses/resp_123",
                "v1/responses/resp_123/cancel", "v1/messages/batches", "model/x/unknown", "", "v1/files"}) {
            assertThat(WireFormat.fromPathTail(tail)).as(tail).isEmpty();
        }
        assertThat(WireFormat.fromPathTail(null)).isEmpty();
    }

    @Test
    void bedrockPathsNameTheModelAndWhetherTheAnswerStreams() {
        assertThat(WireRoute.of("model/anthropic.claude-sonnet-4-5-20250929-v1:0/invoke")).contains(new WireRoute(
                WireFormat.BEDROCK_INVOKE, Optional.of("anthropic.claude-sonnet-4-5-20250929-v1:0"), false));
        assertThat(WireRoute.of("model/us.anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream"))
                .contains(new WireRoute(WireFormat.BEDROCK_INVOKE,
                        Optional.of("us.anthropic.claude-3-5-haiku-20241022-v1:0"), true));
        assertThat(WireRoute.of("model/amazon.nova-pro-v1:0/converse")).contains(new WireRoute(
                WireFormat.BEDROCK_CONVERSE, Optional.of("amazon.nova-pro-v1:0"), false));
        assertThat(WireRoute.of("model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.meta"
                + ".llama3-3-70b-instruct-v1%3A0/converse-stream").orElseThrow().pathModel())
                .contains("arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-3-70b-instruct-v1:0");
    }

    @Test
    void azureDeploymentPathsNameTheDeployment() {
        assertThat(WireRoute.of("openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21"))
                .contains(new WireRoute(WireFormat.OPENAI_CHAT, Optional.of("gpt-4o-prod"), false));
        assertThat(WireRoute.of("deployments/emb/embeddings").orElseThrow().format())
                .isEqualTo(WireFormat.OPENAI_EMBEDDINGS);
    }

    @Test
    void aMalformedEscapeInTheModelIsNotAMeteredCall() {
        assertThat(WireRoute.of("model/bad%zzid/invoke")).isEmpty();
    }
}
