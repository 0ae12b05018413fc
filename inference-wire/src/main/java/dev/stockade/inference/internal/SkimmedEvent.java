package dev.stockade.inference.internal;

import dev.stockade.inference.WireFormat;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Decides from an event's name and raw text whether it can carry usage, a model, an end or an error, so the
 * text deltas that make up almost all of a stream are passed on without being parsed as JSON. The skim may let
 * an irrelevant event through (it is then parsed and ignored) but never drops one that matters.
 */
final class SkimmedEvent {

    private static final Set<String> ANTHROPIC = Set.of("message_start", "message_delta", "message_stop", "error");
    private static final Set<String> RESPONSES = Set.of("response.created", "response.completed",
            "response.incomplete", "response.failed", "error");
    private static final String SEQUENCE = "\"sequence_number\"";

    private SkimmedEvent() {
    }

    /** False only for an event that cannot matter to metering. */
    static boolean mayMatter(WireFormat format, String name, String data, boolean modelKnown) {
        return switch (format) {
            // An unnamed event is judged by its JSON `type`, so it is parsed.
            case ANTHROPIC_MESSAGES, BEDROCK_INVOKE -> name.isEmpty() || ANTHROPIC.contains(name);
            case OPENAI_RESPONSES -> name.isEmpty() || RESPONSES.contains(name);
            // Every Chat chunk may carry usage (some backends put it beside the last choice) or an error.
            case OPENAI_CHAT -> !modelKnown || data.contains("\"usage\"") || data.contains("\"error\"");
            default -> true;
        };
    }

    /** The top-level {@code sequence_number} of a Responses event from its text (the last occurrence). */
    static OptionalLong sequenceNumber(String data) {
        int at = data.lastIndexOf(SEQUENCE);
        if (at < 0) {
            return OptionalLong.empty();
        }
        int start = skipSpaces(data, at + SEQUENCE.length());
        if (start >= data.length() || data.charAt(start) != ':') {
            return OptionalLong.empty();
        }
        start = skipSpaces(data, start + 1);
        int end = start;
        while (end < data.length() && end - start < 18 && data.charAt(end) >= '0' && data.charAt(end) <= '9') {
            end++;
        }
        return end == start ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(data.substring(start, end)));
    }

    private static int skipSpaces(String data, int from) {
        int at = from;
        while (at < data.length() && (data.charAt(at) == ' ' || data.charAt(at) == '\t')) {
            at++;
        }
        return at;
    }
}
