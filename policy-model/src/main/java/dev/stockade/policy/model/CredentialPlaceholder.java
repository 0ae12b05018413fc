package dev.stockade.policy.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The text {@code __platform_cred:<uuid>__} that stands in a sandbox for a credential the platform holds; the egress
 * proxy swaps it for the secret on the wire. One type so that the compiler that writes it, the proxy that finds and
 * replaces it and the runtime that recognises it agree on one format.
 *
 * @param id the credential's identifier: a name-based (v3) UUID of the credential's name unless stored otherwise
 */
public record CredentialPlaceholder(UUID id) {
    /** What every placeholder starts with; text without it holds no placeholder. */
    public static final String PREFIX = "__platform_cred:";
    /** What every placeholder ends with. */
    public static final String SUFFIX = "__";

    /** Requires the id: a placeholder names one credential. */
    public CredentialPlaceholder {
        Objects.requireNonNull(id, "id");
    }

    /** The placeholder of the credential a policy binds by {@code credentialName}: its v3 UUID, stable forever. */
    public static CredentialPlaceholder forName(String credentialName) {
        return new CredentialPlaceholder(idFor(credentialName));
    }

    /** The identifier derived from a credential's name (for credentials stored without an explicit id). */
    public static UUID idFor(String credentialName) {
        return UUID.nameUUIDFromBytes(credentialName.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code text} read as exactly one placeholder, or empty (no surrounding text, canonical UUID only). */
    public static Optional<CredentialPlaceholder> parse(String text) {
        if (text == null || !text.startsWith(PREFIX) || !text.endsWith(SUFFIX)
                || text.length() != PREFIX.length() + 36 + SUFFIX.length()) {
            return Optional.empty();
        }
        return CanonicalUuid.parse(text.substring(PREFIX.length(), PREFIX.length() + 36)).map(CredentialPlaceholder::new);
    }

    /** Whether {@code text} may hold a placeholder: it holds the prefix (cheap, for the common case of none). */
    public static boolean mayOccurIn(String text) {
        return text != null && text.contains(PREFIX);
    }

    /**
     * Every occurrence of the prefix in {@code text}, in order, each either a placeholder or malformed (no closing
     * {@code __}, or not a canonical UUID before it). A malformed occurrence ends the scan: what follows it cannot
     * be delimited with confidence.
     */
    public static List<Occurrence> findIn(String text) {
        List<Occurrence> out = new ArrayList<>();
        int at = text == null ? -1 : text.indexOf(PREFIX);
        while (at >= 0) {
            int idStart = at + PREFIX.length();
            int close = text.indexOf(SUFFIX, idStart);
            Optional<UUID> id = close < 0 ? Optional.empty() : CanonicalUuid.parse(text.substring(idStart, close));
            if (id.isEmpty()) {
                out.add(new Occurrence(at, text.length(), null));
                break;
            }
            int end = close + SUFFIX.length();
            out.add(new Occurrence(at, end, new CredentialPlaceholder(id.get())));
            at = text.indexOf(PREFIX, end);
        }
        return List.copyOf(out);
    }

    /** The placeholder's text. */
    public String text() {
        return PREFIX + id + SUFFIX;
    }

    @Override
    public String toString() {
        return text();
    }

    /**
     * One occurrence of the prefix in a text.
     *
     * @param start       index of the prefix
     * @param end         index just past the closing {@code __} (the text's length when malformed)
     * @param placeholder what it names, {@code null} when malformed
     */
    public record Occurrence(int start, int end, CredentialPlaceholder placeholder) {
        /** Whether the occurrence names no credential (no closing {@code __} or no canonical UUID). */
        public boolean malformed() {
            return placeholder == null;
        }
    }
}
