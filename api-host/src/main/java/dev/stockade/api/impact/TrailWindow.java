package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.policy.impact.ImpactLimits;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The window of the trail a replay or a suggestion reads, read from a request body and bounded before any entry is
 * read: {@code since} required, {@code until} defaulting to now, {@code since} before {@code until}, at most
 * {@link ImpactLimits#maxWindow()} apart. Impact and suggest share it so that both are bounded the same way.
 *
 * @param since start of the window, inclusive
 * @param until end of the window, exclusive
 */
record TrailWindow(Instant since, Instant until) {
    static TrailWindow of(JsonNode body, ImpactLimits limits, Instant now) {
        Instant since = instant(body, "since", null);
        Instant until = instant(body, "until", now);
        if (!since.isBefore(until)) {
            throw ApiProblem.invalid("/since", "window-empty", "`since` must be before `until`");
        }
        if (Duration.between(since, until).compareTo(limits.maxWindow()) > 0) {
            throw ApiProblem.invalid("/since", "window-too-long", "the window is longer than "
                    + limits.maxWindow().toDays() + " days: give a later `since`");
        }
        return new TrailWindow(since, until);
    }

    private static Instant instant(JsonNode body, String field, Instant otherwise) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            if (otherwise != null) {
                return otherwise;
            }
            throw ApiProblem.invalid("/" + field, "required", "`" + field + "` (an ISO 8601 instant) is required");
        }
        try {
            return Instant.parse(v.isTextual() ? v.asText() : "");
        } catch (DateTimeParseException e) {
            throw ApiProblem.invalid("/" + field, "type", "`" + field + "` must be an ISO 8601 instant");
        }
    }
}
