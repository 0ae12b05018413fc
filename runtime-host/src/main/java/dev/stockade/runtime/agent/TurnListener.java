package dev.stockade.runtime.agent;

/**
 * What a channel hears of a turn while it runs. With verbose on, every text step is delivered: its
 * pieces as the model writes them ({@link #delta}), then the whole step ({@link #step}). With verbose off
 * only the final step is delivered, whole, once the turn knows it is the final one.
 */
public interface TurnListener {
    /** A listener that hears nothing. */
    TurnListener NONE = new TurnListener() {
    };

    /** A piece of a text step as it arrives from the model (verbose only). */
    default void delta(String text) {
    }

    /** A text step delivered. */
    default void step(String text) {
    }

    /** A tool the agent ran: its name, and whether it failed. */
    default void tool(String name, boolean error) {
    }
}
