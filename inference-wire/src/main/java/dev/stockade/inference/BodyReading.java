package dev.stockade.inference;

import java.util.Optional;

/**
 * What a whole (non-streamed) answer reported.
 *
 * @param usage   the usage reported, or empty when the answer carried none the meter could read
 * @param model   the model the answer named, when it names one
 * @param problem why the body could not be read, when it could not (headers may still have given usage)
 */
public record BodyReading(Optional<TokenUsage> usage, Optional<String> model, Optional<WireProblem> problem) {
}
