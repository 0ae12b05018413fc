package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import software.amazon.eventstream.Message;

/** The injected error events have each provider's documented shape (research/sdk-behaviour.md). */
class TruncationEventTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StreamReading CUT = new StreamReading(Optional.empty(), Optional.empty(), false, false,
            Optional.empty(), OptionalLong.of(7));

    private static JsonNode data(String sse, String expectedPrefix) throws Exception {
        assertThat(sse).startsWith(expectedPrefix).endsWith("\n\n");
        return JSON.readTree(sse.substring(expectedPrefix.length(), sse.length() - 2));
    }

    @Test
    void anthropicGetsAnErrorEventOfTypeApiError() throws Exception {
        String sse = new String(TruncationEvent.bytes(WireFormat.ANTHROPIC_MESSAGES, CUT), StandardCharsets.UTF_8);
        JsonNode data = data(sse, "event: error\ndata: ");
        assertThat(data.path("type").asText()).isEqualTo("error");
        assertThat(data.path("error").path("type").asText()).isEqualTo("api_error");
        assertThat(data.path("error").path("message").asText()).isEqualTo(TruncationEvent.MESSAGE);
    }

    @Test
    void chatGetsADataLineWhoseTopLevelIsError() throws Exception {
        String sse = new String(TruncationEvent.bytes(WireFormat.OPENAI_CHAT, CUT), StandardCharsets.UTF_8);
        JsonNode data = data(sse, "data: ");
        assertThat(data.fieldNames()).toIterable().containsExactly("error");
        assertThat(data.path("error").path("type").asText()).isEqualTo("server_error");
    }

    @Test
    void responsesGetsAnErrorEventContinuingTheSequence() throws Exception {
        String sse = new String(TruncationEvent.bytes(WireFormat.OPENAI_RESPONSES, CUT), StandardCharsets.UTF_8);
        JsonNode data = data(sse, "event: error\ndata: ");
        assertThat(data.path("type").asText()).isEqualTo("error");
        assertThat(data.path("sequence_number").asLong()).isEqualTo(8);
    }

    @Test
    void bedrockGetsAnInternalServerExceptionFrame() throws Exception {
        for (WireFormat format : new WireFormat[] {WireFormat.BEDROCK_INVOKE, WireFormat.BEDROCK_CONVERSE}) {
            Message frame = Message.decode(ByteBuffer.wrap(TruncationEvent.bytes(format, CUT)));
            assertThat(frame.getHeaders().get(":message-type").getString()).isEqualTo("exception");
            assertThat(frame.getHeaders().get(":exception-type").getString()).isEqualTo("internalServerException");
            assertThat(JSON.readTree(frame.getPayload()).path("message").asText()).isEqualTo(TruncationEvent.MESSAGE);
        }
    }

    @Test
    void aMeterReadingTheInjectedEventAfterACutSeesAnUpstreamError() {
        for (WireFormat format : new WireFormat[] {WireFormat.ANTHROPIC_MESSAGES, WireFormat.OPENAI_CHAT,
                WireFormat.OPENAI_RESPONSES, WireFormat.BEDROCK_INVOKE, WireFormat.BEDROCK_CONVERSE}) {
            StreamReading reading = StreamMeterTest.meter(format, TruncationEvent.bytes(format, CUT));
            assertThat(reading.end()).as(format.name()).isEqualTo(StreamEnd.UPSTREAM_ERROR);
        }
    }

    @Test
    void embeddingsHaveNoStreamToFail() {
        assertThatThrownBy(() -> TruncationEvent.bytes(WireFormat.OPENAI_EMBEDDINGS, CUT))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
