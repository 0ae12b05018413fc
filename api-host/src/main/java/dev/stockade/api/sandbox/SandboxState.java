package dev.stockade.api.sandbox;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The states of a sandbox (spec: "Sandbox states") and the only moves between them: each {@link Transition} names the
 * states it is accepted in and the state it leads to, so no call site writes a move of its own.
 */
public enum SandboxState {
    CREATING, STARTING, RUNNING, STOPPED, ERROR;

    /** States in which the sandbox is, or is about to be, provisioned. */
    public static final Set<SandboxState> LIVE = EnumSet.of(CREATING, STARTING, RUNNING);
    /** States in which provisioning is asked for or under way: what a caller that needs the sandbox waits out. */
    public static final Set<SandboxState> STARTING_UP = EnumSet.of(CREATING, STARTING);

    /** Every move a sandbox can make, with where it may start from. */
    public enum Transition {
        /** The worker begins provisioning (a create, start, restart or promotion). */
        PROVISION(EnumSet.of(CREATING, STARTING, RUNNING, ERROR), STARTING),
        /** Provisioning finished. */
        READY(EnumSet.of(STARTING), RUNNING),
        /** Provisioning failed. */
        FAIL(EnumSet.of(STARTING), ERROR),
        /** {@code POST .../start}. */
        START(EnumSet.of(STOPPED, ERROR), STARTING),
        /** {@code POST .../stop}: accepted while creating or starting too; provisioning in flight ends stopped. */
        STOP(EnumSet.of(CREATING, STARTING, RUNNING, ERROR, STOPPED), STOPPED),
        /** {@code POST .../restart}: re-provisions a running sandbox or starts a stopped or failed one. */
        RESTART(EnumSet.of(RUNNING, STOPPED, ERROR), STARTING),
        /** The idle timer stops a running sandbox. */
        AUTO_STOP(EnumSet.of(RUNNING), STOPPED),
        /** Activity on a sandbox the idle timer stopped, with {@code autoStart}. */
        AUTO_START(EnumSet.of(STOPPED), STARTING);

        private final Set<SandboxState> from;
        private final SandboxState to;

        Transition(Set<SandboxState> from, SandboxState to) {
            this.from = from;
            this.to = to;
        }

        /** The states this move is accepted in. */
        public Set<SandboxState> from() {
            return EnumSet.copyOf(from);
        }

        public SandboxState to() {
            return to;
        }

        /** Whether a sandbox in {@code state} may make this move. */
        public boolean acceptedIn(SandboxState state) {
            return from.contains(state);
        }
    }

    /** The state as the API and the database write it ({@code running}), also when Jackson writes the enum. */
    @JsonValue
    public String slug() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The state of a slug as stored; an unknown slug is a corrupt row, not user input. */
    public static SandboxState of(String slug) {
        return valueOf(slug.toUpperCase(Locale.ROOT));
    }

    @Override
    public String toString() {
        return slug();
    }
}
