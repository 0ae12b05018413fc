package dev.stockade.runtime.store;

/**
 * The one agent this runtime hosts, as stored.
 *
 * @param modelOverride main-model override, {@code null} for the env default
 * @param heartbeatModelOverride heartbeat model, {@code null} falls back to the main model
 * @param cronModelOverride cron-task model, {@code null} falls back to the main model
 * @param heartbeatIntervalMinutes 0 disables the heartbeat
 */
public record AgentProfile(String id, String name, String teamName, String ownerUserId, String modelOverride,
        String heartbeatModelOverride, String cronModelOverride, boolean verbose, boolean lockedIn,
        String timezone, int heartbeatIntervalMinutes) {
}
