package dev.stockade.api.kernel.config;

/** The platform's version, as the heartbeat and {@code GET /v1/installation} report it. */
public final class PlatformVersion {
    public static final String VALUE = "0.1.0";

    private PlatformVersion() {
    }
}
