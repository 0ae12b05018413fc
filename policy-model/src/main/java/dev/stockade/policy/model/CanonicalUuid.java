package dev.stockade.policy.model;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/** Ids in policies and placeholders are UUIDs in the canonical 8-4-4-4-12 form only (either case), never looser. */
final class CanonicalUuid {
    // UUID.fromString alone would also take `1-2-3-4-5`
    private static final Pattern CANONICAL = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private CanonicalUuid() {
    }

    static Optional<UUID> parse(String text) {
        return text != null && CANONICAL.matcher(text).matches() ? Optional.of(UUID.fromString(text))
                : Optional.empty();
    }
}
