package dev.stockade.runtime.tui;

/** One event of a streamed turn as the runtime sends it (docs/runtime.md, "Streaming a turn"), or its end. */
sealed interface TurnEvent {
    /** A piece of a text step as the model writes it (verbose only). */
    record Delta(String text) implements TurnEvent {
    }

    /** A delivered text step, whole. */
    record Step(String text) implements TurnEvent {
    }

    /** A tool ran; its input and output stay in the thread. */
    record ToolRan(String name, boolean error) implements TurnEvent {
    }

    /** The turn ended; {@code contextPercent} is null when the model's window is unknown. */
    record Done(boolean compacted, Integer contextPercent) implements TurnEvent {
    }

    /** The turn failed, the stream broke, or the answer was not a stream: one line saying why. */
    record Failed(String reason) implements TurnEvent {
    }

    /** The person stopped following the reply (Ctrl-C); the turn goes on in the runtime. */
    record Detached() implements TurnEvent {
    }
}
