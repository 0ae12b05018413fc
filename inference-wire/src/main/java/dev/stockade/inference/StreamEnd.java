package dev.stockade.inference;

/** How an upstream stream ended, which decides whether the proxy must fail the client's stream. */
public enum StreamEnd {
    /** The format's normal terminal event arrived. */
    COMPLETE,
    /** The provider sent its own in-stream error event; the client has seen it already. */
    UPSTREAM_ERROR,
    /** Neither: the proxy must write the native error event and abort the connection (SDKs report a clean cut as success). */
    TRUNCATED
}
