package dev.stockade.inference;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.inference.internal.Json;
import dev.stockade.inference.internal.UsageTally;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the usage of OpenAI Realtime server events so a relay can charge each response to the ledger: every
 * response ends with one {@code response.done}, whatever its status, whose {@code response.usage} is what OpenAI
 * bills (field names as in openai-node's {@code RealtimeResponseUsage}). Hostile input never throws: a count that
 * is negative, fractional or past a long is read as absent, as the other readers do. Stateless.
 */
public final class RealtimeUsage {

    /** The event that ends a response and carries its usage. */
    public static final String RESPONSE_DONE = "response.done";

    // Real ids are short (`resp_…`, `sess_…`); anything else is not written into an audit entry.
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,128}");
    private static final int MAX_MODEL_CHARS = 256;

    /** How a response ended, from {@code response.status}. */
    public enum Status {
        COMPLETED("completed"), CANCELLED("cancelled"), FAILED("failed"), INCOMPLETE("incomplete"),
        IN_PROGRESS("in_progress");

        private final String wire;

        Status(String wire) {
            this.wire = wire;
        }

        /** The value on the wire, e.g. {@code cancelled}. */
        public String wire() {
            return wire;
        }
    }

    private RealtimeUsage() {
    }

    /**
     * The usage of a {@code response.done} event, input without its cached part as {@link TokenUsage} requires,
     * audio and image parts in {@link TokenUsage#media()}. Empty for any other event, and for a
     * {@code response.done} without a usage object (a cancelled or failed response may carry none).
     */
    public static Optional<TokenUsage> of(JsonNode serverEvent) {
        JsonNode usage = usageNode(serverEvent);
        if (usage == null) {
            return Optional.empty();
        }
        UsageTally tally = new UsageTally();
        tally.openAiRealtime(usage);
        return tally.usage();
    }

    /** The {@code response.id} of an event that carries a response ({@code response.created}, {@code response.done}). */
    public static Optional<String> responseId(JsonNode serverEvent) {
        return Json.text(response(serverEvent), "id").filter(id -> ID.matcher(id).matches());
    }

    /** The {@code response.status} of an event that carries a response, when it is one the API documents. */
    public static Optional<Status> status(JsonNode serverEvent) {
        Optional<String> wire = Json.text(response(serverEvent), "status");
        for (Status status : Status.values()) {
            if (wire.isPresent() && status.wire.equals(wire.get())) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }

    /**
     * The model of a {@code session.created} or {@code session.updated} event ({@code session.model}), to price
     * the session's responses with when the relay did not name one itself.
     */
    public static Optional<String> sessionModel(JsonNode serverEvent) {
        String type = type(serverEvent);
        if (!type.equals("session.created") && !type.equals("session.updated")) {
            return Optional.empty();
        }
        return Json.text(serverEvent.get("session"), "model").filter(model -> model.length() <= MAX_MODEL_CHARS);
    }

    /** The usage object of a {@code response.done}, or null for any other event or one without an object. */
    static JsonNode usageNode(JsonNode serverEvent) {
        if (!type(serverEvent).equals(RESPONSE_DONE)) {
            return null;
        }
        JsonNode response = response(serverEvent);
        JsonNode usage = response == null ? null : response.get("usage");
        return usage != null && usage.isObject() ? usage : null;
    }

    private static String type(JsonNode event) {
        JsonNode type = event == null ? null : event.get("type");
        return type != null && type.isTextual() ? type.asText() : "";
    }

    private static JsonNode response(JsonNode event) {
        JsonNode response = event == null ? null : event.get("response");
        return response != null && response.isObject() ? response : null;
    }
}
