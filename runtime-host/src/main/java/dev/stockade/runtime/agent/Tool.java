package dev.stockade.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.provider.ToolSpec;

/**
 * A tool the agent may call.
 *
 * @param frozen whether the lock withholds it (a document or memory write)
 * @param change for a frozen tool: what a call would have changed, said in the refusal
 */
public record Tool(ToolSpec spec, boolean frozen, Handler handler, Change change) {
    /** Runs a call and returns the text result; a {@link ToolError} becomes an error result. */
    @FunctionalInterface
    public interface Handler {
        String call(JsonNode input) throws Exception;
    }

    /** Describes the change a refused call would have made. */
    @FunctionalInterface
    public interface Change {
        String describe(JsonNode input);
    }

    /** A tool failure whose message is shown to the model. */
    public static final class ToolError extends Exception {
        private static final long serialVersionUID = 1L;

        public ToolError(String message) {
            super(message, null, false, false);
        }
    }

    public String name() {
        return spec.name();
    }
}
