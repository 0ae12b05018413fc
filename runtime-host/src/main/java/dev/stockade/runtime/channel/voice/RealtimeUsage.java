package dev.stockade.runtime.channel.voice;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The tokens one realtime response used, as {@code response.done} reports them; the runtime meters voice per response,
 * as the platform checks its limits per response.
 */
public record RealtimeUsage(long inputTokens, long outputTokens, long inputAudioTokens, long outputAudioTokens,
        long cachedTokens) {
    /** No usage. */
    public static final RealtimeUsage NONE = new RealtimeUsage(0, 0, 0, 0, 0);

    /** Reads {@code response.usage} of a {@code response.done} event; absent fields count zero. */
    static RealtimeUsage of(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return NONE;
        }
        return new RealtimeUsage(usage.path("input_tokens").asLong(0), usage.path("output_tokens").asLong(0),
                usage.path("input_token_details").path("audio_tokens").asLong(0),
                usage.path("output_token_details").path("audio_tokens").asLong(0),
                usage.path("input_token_details").path("cached_tokens").asLong(0));
    }

    /** The sum of two usages, for a session's running total. */
    public RealtimeUsage plus(RealtimeUsage o) {
        return new RealtimeUsage(inputTokens + o.inputTokens, outputTokens + o.outputTokens,
                inputAudioTokens + o.inputAudioTokens, outputAudioTokens + o.outputAudioTokens,
                cachedTokens + o.cachedTokens);
    }
}
