package dev.stockade.policy.compiler;

import java.util.Arrays;
import java.util.Optional;

/** What a spending limit caps: the organization, one of its projects, or one sandbox; all that apply count. */
public enum SpendScope {
    /** The whole organization. */
    ORGANIZATION("org"),
    /** One project of the organization. */
    PROJECT("project"),
    /** One sandbox. */
    SANDBOX("sandbox");

    private final String wire;

    SpendScope(String wire) {
        this.wire = wire;
    }

    /** The name in the API and the database: {@code org}, {@code project} or {@code sandbox}. */
    public String wire() {
        return wire;
    }

    /** The scope named {@code wire}, or empty. */
    public static Optional<SpendScope> of(String wire) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst();
    }
}
