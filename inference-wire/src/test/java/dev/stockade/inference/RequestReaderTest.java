package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Request bodies as each SDK sends them: model, stream flag, output bound, input bound, usage option. */
class RequestReaderTest {

    private final RequestReader reader = new RequestReader(WireLimits.DEFAULT);

    private static byte[] utf8(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private RequestShape read(String tail, String json) throws WireException {
        return reader.read(WireRoute.of(tail).orElseThrow(), utf8(json));
    }

    @Test
    void anthropicMessagesBody() throws WireException {
        String body = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":1024,\"stream\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"Grüß dich\"}]}";
        RequestShape shape = read("v1/messages", body);
        assertThat(shape).isEqualTo(new RequestShape(WireFormat.ANTHROPIC_MESSAGES, Optional.of("claude-sonnet-4-5"),
                true, OptionalLong.of(1024), utf8(body).length + RequestReader.HIDDEN_PROMPT_ALLOWANCE, false));
    }

    @Test
    void chatTakesTheLargerOfBothBoundsTimesTheNumberOfChoices() throws WireException {
        RequestShape shape = read("v1/chat/completions",
                "{\"model\":\"gpt-4o\",\"max_tokens\":100,\"max_completion_tokens\":300,\"n\":3,\"messages\":[]}");
        assertThat(shape.maxOutputTokens()).hasValue(900);
        assertThat(shape.stream()).isFalse();
        assertThat(read("chat/completions", "{\"model\":\"gpt-4o\",\"messages\":[]}").maxOutputTokens()).isEmpty();
        assertThat(read("chat/completions", "{\"model\":\"gpt-4o\",\"max_tokens\":null}").maxOutputTokens()).isEmpty();
    }

    @Test
    void responsesEmbeddingsAndConverseBounds() throws WireException {
        assertThat(read("v1/responses", "{\"model\":\"gpt-4.1\",\"input\":\"hi\",\"max_output_tokens\":64}")
                .maxOutputTokens()).hasValue(64);
        assertThat(read("v1/embeddings", "{\"model\":\"text-embedding-3-small\",\"input\":[\"a\",\"b\"]}")
                .maxOutputTokens()).hasValue(0);
        RequestShape converse = read("model/amazon.nova-pro-v1:0/converse-stream",
                "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"hi\"}]}],\"inferenceConfig\":{\"maxTokens\":512}}");
        assertThat(converse.maxOutputTokens()).hasValue(512);
        assertThat(converse.stream()).isTrue();
        assertThat(converse.model()).contains("amazon.nova-pro-v1:0");
    }

    @Test
    void bedrockTakesTheModelFromThePathNotTheBody() throws WireException {
        RequestShape shape = read("model/anthropic.claude-3-5-haiku-20241022-v1:0/invoke",
                "{\"anthropic_version\":\"bedrock-2023-05-31\",\"model\":\"other\",\"stream\":true,\"max_tokens\":200,\"messages\":[]}");
        assertThat(shape.model()).contains("anthropic.claude-3-5-haiku-20241022-v1:0");
        assertThat(shape.stream()).as("InvokeModel streams only on its stream path").isFalse();
        assertThat(shape.maxOutputTokens()).hasValue(200);
    }

    @Test
    void contentWhoseTokensTheBytesDoNotBoundIsFlagged() throws WireException {
        String[] unbounded = {
            "{\"model\":\"m\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"https://example.com/a.png\"}}]}]}",
            "{\"model\":\"m\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"document\",\"source\":{\"type\":\"base64\",\"media_type\":\"application/pdf\",\"data\":\"JVBERi0=\"}}]}]}",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://x/y.jpg\"}}]}]}",
            "{\"model\":\"m\",\"input\":\"hi\",\"previous_response_id\":\"resp_1\"}",
            "{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_file\",\"file_id\":\"file-1\"}]}]}",
            "{\"model\":\"m\",\"input\":\"hi\",\"tools\":[{\"type\":\"web_search\"}]}",
            "{\"model\":\"m\",\"max_tokens\":1,\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}],\"messages\":[]}",
            "{\"messages\":[{\"role\":\"user\",\"content\":[{\"image\":{\"format\":\"png\",\"source\":{\"s3Location\":{\"uri\":\"s3://b/k\"}}}}]}]}",
            "{\"messages\":[{\"role\":\"user\",\"content\":[{\"video\":{\"format\":\"mp4\",\"source\":{\"bytes\":\"AAAA\"}}}]}]}",
        };
        for (String body : unbounded) {
            assertThat(read("v1/messages", body).unboundedInput()).as(body).isTrue();
        }
        String inline = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\","
                + "\"image_url\":{\"url\":\"data:image/png;base64,iVBORw0KGgo=\"}},{\"type\":\"text\",\"text\":\"what is it\"}]}]}";
        assertThat(read("v1/chat/completions", inline).unboundedInput()).isFalse();
    }

    @Test
    void refusesWhatItCannotBound() {
        assertProblem("{\"model\":\"m\",\"max_tokens\":-1}", WireProblem.INVALID_FIELD);
        assertProblem("{\"model\":\"m\",\"max_tokens\":10.5}", WireProblem.INVALID_FIELD);
        assertProblem("{\"model\":\"m\",\"max_tokens\":\"100\"}", WireProblem.INVALID_FIELD);
        assertProblem("{\"model\":\"m\",\"stream\":\"yes\"}", WireProblem.INVALID_FIELD);
        assertProblem("{\"model\":\"m\",\"max_tokens\":1,\"max_tokens\":100000}", WireProblem.MALFORMED_JSON);
        assertProblem("{\"model\":\"m\"", WireProblem.MALFORMED_JSON);
        assertProblem("{\"model\":\"m\"} {}", WireProblem.MALFORMED_JSON);
        assertProblem("[1,2]", WireProblem.MALFORMED_JSON);
        assertProblem("", WireProblem.MALFORMED_JSON);
    }

    @Test
    void aBodyOverTheLimitIsRefusedBeforeParsing() {
        RequestReader small = new RequestReader(new WireLimits(64, 64));
        byte[] body = utf8("{\"model\":\"m\",\"messages\":[{\"content\":\"" + "x".repeat(100) + "\"}]}");
        assertThatThrownBy(() -> small.read(WireRoute.of("v1/messages").orElseThrow(), body))
                .isInstanceOfSatisfying(WireException.class, e -> {
                    assertThat(e.problem()).isEqualTo(WireProblem.BODY_TOO_LARGE);
                    assertThat(e.getMessage()).doesNotContain("xxxx");
                });
    }

    @Test
    void errorMessagesNeverQuoteTheBody() {
        String secret = "sk-live-0123456789abcdef";
        assertThatThrownBy(() -> read("v1/messages", "{\"model\":\"m\",\"api_key\":\"" + secret + "\",]"))
                .isInstanceOf(WireException.class).hasMessageNotContaining(secret);
    }

    private void assertProblem(String body, WireProblem problem) {
        assertThatThrownBy(() -> read("v1/chat/completions", body))
                .isInstanceOfSatisfying(WireException.class, e -> assertThat(e.problem()).isEqualTo(problem));
    }

    @Test
    void aChatStreamGetsIncludeUsageAndTheRestOfTheBodyIsKept() throws Exception {
        byte[] body = utf8("{\"model\":\"gpt-4o\",\"stream\":true,\"temperature\":0.30000000000000004,"
                + "\"seed\":123456789012345678,\"messages\":[{\"role\":\"user\",\"content\":\"héllo\"}]}");
        ForwardBody forward = reader.withStreamUsage(body);
        assertThat(forward.rewritten()).isTrue();
        assertThat(forward.clientAskedForUsage()).isFalse();
        ObjectMapper json = new ObjectMapper();
        JsonNode sent = json.readTree(forward.bytes());
        assertThat(sent.path("stream_options").path("include_usage").asBoolean()).isTrue();
        assertThat(new String(forward.bytes(), StandardCharsets.UTF_8))
                .contains("\"temperature\":0.30000000000000004", "\"seed\":123456789012345678", "héllo");
        ((com.fasterxml.jackson.databind.node.ObjectNode) sent).remove("stream_options");
        assertThat(sent).isEqualTo(json.readTree(body));
    }

    @Test
    void includeUsageFalseIsOverriddenAndOtherStreamOptionsKept() throws Exception {
        ForwardBody forward = reader.withStreamUsage(utf8(
                "{\"model\":\"gpt-4o\",\"stream\":true,\"stream_options\":{\"include_usage\":false,\"include_obfuscation\":false}}"));
        JsonNode options = new ObjectMapper().readTree(forward.bytes()).path("stream_options");
        assertThat(options.path("include_usage").asBoolean()).isTrue();
        assertThat(options.has("include_obfuscation")).isTrue();
        assertThat(forward.clientAskedForUsage()).isFalse();
    }

    @Test
    void aClientThatAskedOrDoesNotStreamIsForwardedUnchanged() throws Exception {
        byte[] asked = utf8("{\"model\":\"gpt-4o\",\"stream\":true,\"stream_options\":{\"include_usage\":true}}");
        ForwardBody forward = reader.withStreamUsage(asked);
        assertThat(forward.bytes()).isSameAs(asked);
        assertThat(forward.clientAskedForUsage()).isTrue();
        assertThat(forward.rewritten()).isFalse();
        byte[] plain = utf8("{\"model\":\"gpt-4o\",\"messages\":[]}");
        assertThat(reader.withStreamUsage(plain).bytes()).isSameAs(plain);
    }
}
