package dev.stockade.inference;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a stream has shown so far: the usage to bill (partial when the stream was cut), the model the provider
 * named, and how it ended.
 *
 * @param usage          the latest usage reported, or empty when none arrived yet
 * @param model          the model the stream reported, when it reports one
 * @param terminalSeen   the format's normal terminal event arrived
 * @param errorSeen      a provider error event or exception frame arrived
 * @param fault          why metering stopped short, when it did
 * @param lastSequence   the last {@code sequence_number} of a Responses stream, so an injected error can follow it
 */
public record StreamReading(Optional<TokenUsage> usage, Optional<String> model, boolean terminalSeen,
                            boolean errorSeen, Optional<StreamFault> fault, OptionalLong lastSequence) {

    /** The verdict at the end of the upstream body. An error event wins over a terminal event that follows it. */
    public StreamEnd end() {
        if (errorSeen) {
            return StreamEnd.UPSTREAM_ERROR;
        }
        return terminalSeen ? StreamEnd.COMPLETE : StreamEnd.TRUNCATED;
    }
}
