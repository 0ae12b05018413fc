package dev.stockade.inference;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the request path alone says about a metered call: its wire format and, for Bedrock and Azure
 * deployment paths, the model and whether the answer streams (there the body does not say).
 *
 * @param format      the wire format
 * @param pathModel   the model named by the path (Bedrock model id, Azure deployment), when the path names one
 * @param pathStreams true when the path itself asks for a stream (Bedrock {@code invoke-with-response-stream},
 *                    {@code converse-stream}); other formats say so in the body
 */
public record WireRoute(WireFormat format, Optional<String> pathModel, boolean pathStreams) {

    // INVARIANT: every pattern is anchored and matches the whole normalised tail, so `v1/messages/count_tokens`
    // or `v1/responses/{id}` never pass for a metered call.
    private static final Pattern ANTHROPIC = Pattern.compile("(?:v1/)?messages");
    private static final Pattern CHAT = Pattern.compile("(?:(?:openai/)?v1/|openai/)?chat/completions");
    private static final Pattern RESPONSES = Pattern.compile("(?:(?:openai/)?v1/|openai/)?responses");
    private static final Pattern EMBEDDINGS = Pattern.compile("(?:(?:openai/)?v1/|openai/)?embeddings");
    private static final Pattern DEPLOYMENT =
            Pattern.compile("(?:openai/)?deployments/([^/]+)/(chat/completions|embeddings|responses)");
    private static final Pattern BEDROCK =
            Pattern.compile("model/([^/]+)/(invoke|invoke-with-response-stream|converse|converse-stream)");

    public WireRoute {
        pathModel = pathModel == null ? Optional.empty() : pathModel;
    }

    /** Reads a path tail such as {@code v1/messages} or {@code model/{id}/converse-stream}; query ignored. */
    public static Optional<WireRoute> of(String tail) {
        if (tail == null) {
            return Optional.empty();
        }
        String path = normalise(tail);
        if (ANTHROPIC.matcher(path).matches()) {
            return Optional.of(new WireRoute(WireFormat.ANTHROPIC_MESSAGES, Optional.empty(), false));
        }
        if (CHAT.matcher(path).matches()) {
            return Optional.of(new WireRoute(WireFormat.OPENAI_CHAT, Optional.empty(), false));
        }
        if (RESPONSES.matcher(path).matches()) {
            return Optional.of(new WireRoute(WireFormat.OPENAI_RESPONSES, Optional.empty(), false));
        }
        if (EMBEDDINGS.matcher(path).matches()) {
            return Optional.of(new WireRoute(WireFormat.OPENAI_EMBEDDINGS, Optional.empty(), false));
        }
        return deployment(path).or(() -> bedrock(path));
    }

    private static Optional<WireRoute> deployment(String path) {
        Matcher m = DEPLOYMENT.matcher(path);
        if (!m.matches()) {
            return Optional.empty();
        }
        WireFormat format = switch (m.group(2)) {
            case "embeddings" -> WireFormat.OPENAI_EMBEDDINGS;
            case "responses" -> WireFormat.OPENAI_RESPONSES;
            default -> WireFormat.OPENAI_CHAT;
        };
        return decoded(m.group(1)).map(model -> new WireRoute(format, Optional.of(model), false));
    }

    private static Optional<WireRoute> bedrock(String path) {
        Matcher m = BEDROCK.matcher(path);
        if (!m.matches()) {
            return Optional.empty();
        }
        String operation = m.group(2);
        WireFormat format = operation.startsWith("converse") ? WireFormat.BEDROCK_CONVERSE : WireFormat.BEDROCK_INVOKE;
        boolean streams = operation.endsWith("-stream");
        return decoded(m.group(1)).map(model -> new WireRoute(format, Optional.of(model), streams));
    }

    /** Bedrock model ids (ARNs, inference profiles) travel percent-encoded: {@code arn%3Aaws%3A...}. */
    private static Optional<String> decoded(String segment) {
        try {
            String model = URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
            return model.isBlank() ? Optional.empty() : Optional.of(model);
        } catch (IllegalArgumentException malformedEscape) {
            return Optional.empty();
        }
    }

    private static String normalise(String tail) {
        int query = tail.indexOf('?');
        String path = query >= 0 ? tail.substring(0, query) : tail;
        int start = 0;
        int end = path.length();
        while (start < end && path.charAt(start) == '/') {
            start++;
        }
        while (end > start && path.charAt(end - 1) == '/') {
            end--;
        }
        return path.substring(start, end);
    }
}
