package dev.stockade.runtime.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Messages stream events bound as records ({@link AnthropicEvent}) and folded into a reply: the same reply the wire
 * format defines, fields a later API version adds ignored, and an event of the wrong shape failing the call.
 */
class AnthropicStreamTest {
    private final List<String> deltas = new ArrayList<>();
    private final AnthropicStream stream = new AnthropicStream(deltas::add);

    private void feed(String... events) throws ProviderException {
        for (String e : events) {
            stream.accept(AnthropicEvent.parse(e));
        }
    }

    @Test
    void foldsTextAToolCallAndUsageCacheTokensIncluded() throws Exception {
        feed("{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"usage\":{\"input_tokens\":10,"
                        + "\"cache_read_input_tokens\":200,\"cache_creation_input_tokens\":3,\"output_tokens\":1}}}",
                "{\"type\":\"ping\"}",
                "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Look\"}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ing.\"}}",
                "{\"type\":\"content_block_stop\",\"index\":0}",
                "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\","
                        + "\"id\":\"toolu_9\","
                        + "\"name\":\"shell\",\"input\":{}}}",
                "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\","
                        + "\"partial_json\":\"{\\\"command\\\":\"}}",
                "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\","
                        + "\"partial_json\":\"\\\"pwd\\\"}\"}}",
                "{\"type\":\"content_block_stop\",\"index\":1}",
                "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},"
                        + "\"usage\":{\"output_tokens\":42}}",
                "{\"type\":\"message_stop\"}");
        ModelReply r = stream.finish();
        assertThat(deltas).containsExactly("Look", "ing.");
        assertThat(r.text()).isEqualTo("Looking.");
        assertThat(r.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.id()).isEqualTo("toolu_9");
            assertThat(c.name()).isEqualTo("shell");
            assertThat(c.input().toString()).isEqualTo("{\"command\":\"pwd\"}");
        });
        assertThat(r.stopReason()).isEqualTo("tool_use");
        assertThat(r.inputTokens()).isEqualTo(213);
        assertThat(r.outputTokens()).isEqualTo(42);
    }

    @Test
    void aMessageDeltaWithoutUsageKeepsTheOutputCountAndUnknownFieldsAreIgnored() throws Exception {
        feed("{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":7,\"output_tokens\":5,"
                        + "\"service_tier\":\"standard\"}},\"future\":[1,2]}",
                "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"Hi\","
                        + "\"citations\":[]}}",
                "{\"type\":\"content_block_stop\",\"index\":0}",
                "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}",
                "{\"type\":\"a_later_event\",\"payload\":{\"x\":1}}",
                "{\"type\":\"message_stop\"}");
        ModelReply r = stream.finish();
        assertThat(r.text()).isEqualTo("Hi");
        assertThat(r.inputTokens()).isEqualTo(7);
        assertThat(r.outputTokens()).isEqualTo(5);
        assertThat(r.stopReason()).isEqualTo("end_turn");
    }

    @Test
    void anEventOfTheWrongShapeFailsTheCallWithoutItsContent() {
        assertThatThrownBy(() -> feed("{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\","
                + "\"text\":{\"secret\":\"sk-ant-123\"}}}"))
                .isInstanceOf(ProviderException.class)
                .hasMessage("the provider sent a malformed stream event (MismatchedInputException)");
        assertThatThrownBy(() -> feed("{\"type\":\"message_start\", sk-ant-123"))
                .isInstanceOf(ProviderException.class)
                .hasMessageStartingWith("the provider sent a malformed stream event (")
                .hasMessageNotContaining("sk-ant");
    }

    @Test
    void anErrorEventEndsTheCallRetryableOnlyWhenOverloaded() {
        assertThatThrownBy(() -> feed("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                + "\"message\":\"x\"}}"))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("the provider reported a stream error (overloaded_error)");
                    assertThat(e.retryable()).isTrue();
                });
        assertThatThrownBy(() -> feed("{\"type\":\"error\",\"error\":{\"type\":\"Bad Type!\"}}"))
                .isInstanceOfSatisfying(ProviderException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("the provider reported a stream error (unknown)");
                    assertThat(e.retryable()).isFalse();
                });
        assertThatThrownBy(() -> feed("{\"type\":\"error\"}"))
                .hasMessage("the provider reported a stream error (unknown)");
    }

    @Test
    void aStreamWithoutMessageStopWasCut() throws Exception {
        feed("{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}");
        assertThatThrownBy(stream::finish).hasMessage("the provider's stream was cut before message_stop");
    }
}
