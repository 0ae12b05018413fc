package dev.stockade.policy.model;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Positions beside the tree: JSON pointer → where that node was written. For an object member the
 * position is the key's (where an editor should put the cursor); {@link #valuePosition} gives the
 * value's. Immutable.
 */
public final class SourceMap {
    private static final SourceMap EMPTY = new SourceMap(Map.of(), Map.of());

    private final Map<String, SourcePosition> positions;
    private final Map<String, SourcePosition> valuePositions;

    SourceMap(Map<String, SourcePosition> positions, Map<String, SourcePosition> valuePositions) {
        this.positions = Map.copyOf(positions);
        this.valuePositions = Map.copyOf(valuePositions);
    }

    /** A map without positions (for trees that were never text). */
    public static SourceMap empty() {
        return EMPTY;
    }

    /** Where the node at {@code jsonPointer} was written, if known. */
    public Optional<SourcePosition> position(String jsonPointer) {
        SourcePosition p = positions.get(jsonPointer);
        return Optional.ofNullable(p != null ? p : valuePositions.get(jsonPointer));
    }

    /** Where the value (not the key) of the node at {@code jsonPointer} starts, if known. */
    public Optional<SourcePosition> valuePosition(String jsonPointer) {
        return Optional.ofNullable(valuePositions.get(jsonPointer));
    }

    /**
     * The position of {@code jsonPointer}, or of its nearest ancestor that has one; {@code (0, 0)} when
     * nothing on the way up is known.
     */
    public SourcePosition nearest(String jsonPointer) {
        String p = jsonPointer == null ? "" : jsonPointer;
        while (true) {
            Optional<SourcePosition> found = position(p);
            if (found.isPresent()) {
                return found.get();
            }
            if (p.isEmpty()) {
                return new SourcePosition(0, 0);
            }
            int slash = p.lastIndexOf('/');
            p = slash <= 0 ? "" : p.substring(0, slash);
        }
    }

    /**
     * The sub-map of the document nested at {@code pointerPrefix} (e.g. {@code /cases/0/policy}), with
     * pointers relative to it. Positions stay those of the enclosing text.
     */
    public SourceMap rebase(String pointerPrefix) {
        if (pointerPrefix == null || pointerPrefix.isEmpty()) {
            return this;
        }
        return new SourceMap(strip(positions, pointerPrefix), strip(valuePositions, pointerPrefix));
    }

    private static Map<String, SourcePosition> strip(Map<String, SourcePosition> map, String prefix) {
        Map<String, SourcePosition> out = new HashMap<>();
        map.forEach((k, v) -> {
            if (k.equals(prefix)) {
                out.put("", v);
            } else if (k.startsWith(prefix) && k.charAt(prefix.length()) == '/') {
                out.put(k.substring(prefix.length()), v);
            }
        });
        // The nested document's own node is a value; keep its value position as its position.
        return out;
    }

    /** Builds a map while a document is read. Not thread-safe. */
    public static final class Builder {
        private final Map<String, SourcePosition> positions = new HashMap<>();
        private final Map<String, SourcePosition> valuePositions = new HashMap<>();

        /** Records where the node at {@code pointer} starts (its key, for an object member). */
        public Builder position(String pointer, SourcePosition position) {
            positions.putIfAbsent(pointer, position);
            return this;
        }

        /** Records where the value of the node at {@code pointer} starts. */
        public Builder valuePosition(String pointer, SourcePosition position) {
            valuePositions.putIfAbsent(pointer, position);
            return this;
        }

        /** The immutable map. */
        public SourceMap build() {
            return new SourceMap(positions, valuePositions);
        }
    }
}
