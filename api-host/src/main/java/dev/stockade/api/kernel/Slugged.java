package dev.stockade.api.kernel;

import java.util.Locale;
import java.util.Optional;

/**
 * An enum whose stored and shown spelling is its constant's name in lower kebab case ({@code PROXY_TOKEN} is
 * {@code proxy-token}): one rule for every such vocabulary, so no enum carries a second copy of its names.
 */
public interface Slugged {
    /** The constant's name (every enum has it). */
    String name();

    /** How the value is stored, filtered on and shown. */
    default String slug() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The constant of {@code type} spelled {@code slug}; empty for null or a spelling the enum does not have. */
    static <E extends Enum<E> & Slugged> Optional<E> parse(Class<E> type, String slug) {
        if (slug == null) {
            return Optional.empty();
        }
        for (E e : type.getEnumConstants()) {
            if (e.slug().equals(slug)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
