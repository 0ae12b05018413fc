package dev.stockade.inference;

/** Why metering of a stream stopped short of reading it whole; any fault means the stream cannot be trusted. */
public enum StreamFault {
    /** A line, event or frame grew past {@link WireLimits#maxEventBytes()}; the rest was not parsed. */
    OVERSIZED_EVENT,
    /** An event-stream frame failed its length or checksum checks; the rest was not parsed. */
    MALFORMED_FRAME,
    /** The stream ended inside an event or frame (half of it arrived). */
    INCOMPLETE_EVENT,
    /** An event's payload was not the JSON its format promises; metering went on with the next event. */
    MALFORMED_EVENT
}
