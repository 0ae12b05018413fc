package dev.stockade.runtime.provider;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;

/**
 * One Anthropic Messages stream event, bound from its JSON data into records rather than read as a tree: the fields
 * the reply is folded from are typed, so an event of the wrong shape fails the call instead of reading as empty text
 * or zero tokens. Fields an event type does not carry are null; unknown ones (a later API version's) are ignored.
 *
 * @param type the event type ({@code message_start}, {@code content_block_delta}, ...)
 * @param message {@code message_start}'s message (its usage)
 * @param contentBlock {@code content_block_start}'s block
 * @param delta a block delta, or {@code message_delta}'s stop reason
 * @param usage {@code message_delta}'s cumulative usage
 * @param error an {@code error} event's error
 */
record AnthropicEvent(String type, Message message, @JsonProperty("content_block") Block contentBlock, Delta delta,
        Usage usage, Failure error) {
    private static final ObjectReader READER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readerFor(AnthropicEvent.class);

    /** {@code message_start}'s message: only its usage is read. */
    record Message(Usage usage) {
    }

    /** Token counts; a count the event does not carry is null. */
    record Usage(@JsonProperty("input_tokens") Long inputTokens, @JsonProperty("output_tokens") Long outputTokens,
            @JsonProperty("cache_read_input_tokens") Long cacheReadInputTokens,
            @JsonProperty("cache_creation_input_tokens") Long cacheCreationInputTokens) {
    }

    /** A content block as it starts: text (with its first text) or a tool call (id and name). */
    record Block(String type, String id, String name, String text) {
    }

    /** A text or tool-input delta, or {@code message_delta}'s stop reason. */
    record Delta(String type, String text, @JsonProperty("partial_json") String partialJson,
            @JsonProperty("stop_reason") String stopReason) {
    }

    /** An {@code error} event's error: its type names it. */
    record Failure(String type) {
    }

    /** Binds one event's data; data that is not such an event fails the call (it is never half-applied). */
    static AnthropicEvent parse(String data) throws ProviderException {
        try {
            return READER.readValue(data);
        } catch (IOException e) {
            throw malformed(e);
        }
    }

    /** As {@link #parse(String)}, for the bytes of a Bedrock event-stream chunk. */
    static AnthropicEvent parse(byte[] data) throws ProviderException {
        try {
            return READER.readValue(data);
        } catch (IOException e) {
            throw malformed(e);
        }
    }

    private static ProviderException malformed(IOException e) {
        return new ProviderException("the provider sent a malformed stream event (" + e.getClass().getSimpleName()
                + ")", 0, false);
    }

    /** {@code n}, or {@code fallback} when the event did not carry it. */
    static long count(Long n, long fallback) {
        return n == null ? fallback : n;
    }
}
