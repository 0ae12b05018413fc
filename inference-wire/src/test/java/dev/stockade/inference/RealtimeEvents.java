package dev.stockade.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Realtime server events shaped as OpenAI's reference shows them, shared by the reading and the pricing tests. */
public final class RealtimeEvents {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RealtimeEvents() {
    }

    /** Parses a test document (a fixture that is not JSON fails the test). */
    public static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A {@code response.done} as the API sends it (output items carry no audio bytes), with {@code usage}. */
    public static JsonNode done(String status, String usage) {
        return json("""
                {"event_id": "event_3132", "type": "response.done", "response": {"object": "realtime.response",
                 "id": "resp_CQx8Xq1YcPB0", "status": "%s", "status_details": null, "conversation_id": "conv_001",
                 "output_modalities": ["audio"], "max_output_tokens": "inf",
                 "output": [{"id": "item_001", "type": "message", "status": "completed", "role": "assistant",
                   "content": [{"type": "output_audio", "transcript": "Sure, how can I help?"}]}],
                 "usage": %s}}
                """.formatted(status, usage));
    }

    /** The usage of the reference's own example: 119 text + 13 audio in (64 of the text cached), 30 text + 91 audio out. */
    public static final String AUDIO_TURN = """
            {"total_tokens": 253, "input_tokens": 132, "output_tokens": 121,
             "input_token_details": {"text_tokens": 119, "audio_tokens": 13, "image_tokens": 0, "cached_tokens": 64,
               "cached_tokens_details": {"text_tokens": 64, "audio_tokens": 0, "image_tokens": 0}},
             "output_token_details": {"text_tokens": 30, "audio_tokens": 91}}
            """;

    /** A later turn: 300 text + 1200 audio in, of which 256 text and 768 audio cached; 80 text + 320 audio out. */
    public static final String CACHED_AUDIO_TURN = """
            {"total_tokens": 1900, "input_tokens": 1500, "output_tokens": 400,
             "input_token_details": {"text_tokens": 300, "audio_tokens": 1200, "image_tokens": 0, "cached_tokens": 1024,
               "cached_tokens_details": {"text_tokens": 256, "audio_tokens": 768, "image_tokens": 0}},
             "output_token_details": {"text_tokens": 80, "audio_tokens": 320}}
            """;
}
