package dev.stockade.runtime.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * Renders a subscription's Prompt against a payload: {@code {field.path}} is dot-notation access
 * (array elements by index), an unresolvable key is left as written, and {@code {__raw__}} is the
 * whole payload as indented JSON truncated near {@link #RAW_LIMIT} characters. One left-to-right
 * pass, so the work is linear in the template and the payload is never re-scanned for tokens.
 */
public final class PromptTemplate {
    /** About how many characters of {@code {__raw__}} are kept. */
    public static final int RAW_LIMIT = 4000;
    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final int MAX_TOKEN = 200;

    private PromptTemplate() {
    }

    /** Renders {@code template} against {@code payload}. */
    public static String render(String template, JsonNode payload) {
        StringBuilder out = new StringBuilder(template.length() + 64);
        int i = 0;
        int nextClose = 0; // INVARIANT: the first '}' at or after the last search start, or -1 for none
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '{' && nextClose >= 0 && nextClose <= i) {
                nextClose = template.indexOf('}', i + 1); // each '}' is found once: linear overall
            }
            int close = c == '{' ? nextClose : -1;
            if (close < 0 || close - i - 1 > MAX_TOKEN) {
                out.append(c);
                i++;
                continue;
            }
            String token = template.substring(i + 1, close);
            String value = token.equals("__raw__") ? raw(payload) : lookup(payload, token);
            out.append(value != null ? value : template, value != null ? 0 : i,
                    value != null ? value.length() : close + 1);
            i = close + 1;
        }
        return out.toString();
    }

    /** The payload as indented JSON, cut near {@link #RAW_LIMIT} characters with a marker. */
    public static String raw(JsonNode payload) {
        String s;
        try {
            s = PRETTY.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            s = String.valueOf(payload);
        }
        return s.length() <= RAW_LIMIT ? s : s.substring(0, RAW_LIMIT) + "\n… (truncated, " + s.length()
                + " characters in all)";
    }

    /**
     * What a delivery of {@code payload} to {@code sub} carries: for deliver-only the rendered Prompt (the raw payload
     * when it is empty) posted as the message, otherwise the rendered Prompt (the lead-in when it is empty) the agent
     * gets. The receiver and the web UI's preview call this (the run queue renders the same way), so the preview is
     * what a delivery says.
     */
    public static String forDelivery(Subscription sub, String event, JsonNode payload) {
        if (sub.prompt().isBlank()) {
            // An empty deliver-only template would post an empty message; the raw payload is what the sender said.
            return sub.deliverOnly() ? raw(payload) : leadIn(sub.name(), event, payload);
        }
        return render(sub.prompt(), payload);
    }

    /** The message an agent gets for an empty Prompt: an event and route lead-in, then the raw payload. */
    public static String leadIn(String subscription, String event, JsonNode payload) {
        return "A webhook event arrived.\nRoute: POST /agents/webhooks/" + subscription + "\nEvent: " + event
                + "\n\nPayload:\n```json\n" + raw(payload) + "\n```";
    }

    private static String lookup(JsonNode payload, String path) {
        if (path.isEmpty() || path.isBlank()) {
            return null;
        }
        JsonNode n = payload;
        for (String part : path.split("\\.", -1)) {
            if (n == null || part.isEmpty()) {
                return null;
            }
            n = n.isArray() && part.chars().allMatch(Character::isDigit) && part.length() < 9
                    ? n.get(Integer.parseInt(part)) : n.get(part);
        }
        if (n == null || n.isMissingNode()) {
            return null;
        }
        if (n.isValueNode()) {
            return n.isNull() ? "null" : n.asText();
        }
        return n.toString();
    }
}
