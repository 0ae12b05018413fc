package dev.stockade.runtime.webhook;

import dev.stockade.runtime.channel.DeliverTo;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A webhook subscription (runtime.md "Webhook subscription").
 *
 * @param events allowlist of event types; empty accepts all
 */
public record Subscription(String name, String description, List<String> events, DeliverTo deliverTo,
        boolean deliverOnly, String prompt, boolean active) {
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9_-]*");
    /** Longest name accepted (it becomes a path segment). */
    public static final int MAX_NAME = 64;

    /**
     * Normalises a requested name: trimmed, lower-cased, spaces become hyphens; {@code null} if not a valid
     * slug after that.
     */
    public static String slug(String requested) {
        if (requested == null) {
            return null;
        }
        String s = requested.strip().toLowerCase(Locale.ROOT).replace(' ', '-');
        return s.length() <= MAX_NAME && SLUG.matcher(s).matches() ? s : null;
    }

    /** Parses the comma-separated Events field: trimmed, empty items dropped. */
    public static List<String> parseEvents(String csv) {
        if (csv == null || csv.isBlank()) {
            return List.of();
        }
        return java.util.Arrays.stream(csv.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** Whether {@code event} may run: an empty list accepts all; matching ignores case. */
    public boolean accepts(String event) {
        return events.isEmpty() || events.stream().anyMatch(e -> e.toLowerCase(Locale.ROOT)
                .equals(event.toLowerCase(Locale.ROOT)));
    }
}
