package dev.stockade.api.egress;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.proxy.AuditEvent;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.Optional;
import java.util.UUID;

/**
 * Audit lines a separate proxy replica ships ({@code POST /v1/egress/audit}, one {@code AuditEvent} JSON line each)
 * into the trail, exactly as the in-process proxy's go ({@link EgressAudit}): the sandbox named by the line gives the
 * organization and project. A line that does not read, or names no sandbox the platform knows, is counted and
 * skipped, so one bad line never blocks a replica's retries.
 */
@Singleton
class ReplicaAudit {
    /** What one batch did. */
    @io.micronaut.core.annotation.Introspected
    record Result(int accepted, int unknownSandbox, int malformed) {
    }

    private final ObjectMapper json;

    private final EgressAudit sink;
    private final EnforcementStore store;
    private final Cache<String, Optional<EgressAudit.Owner>> owners = Caffeine.newBuilder().maximumSize(100_000)
            .build();

    ReplicaAudit(AuditAppender appender, EnforcementStore store, ObjectMapper json, UnmeteredCalls unmetered) {
        this.json = json;
        this.store = store;
        this.sink = new EgressAudit(appender, this::owner, unmetered);
    }

    Result append(String ndjson) {
        int accepted = 0;
        int unknown = 0;
        int malformed = 0;
        for (String line : ndjson.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            AuditEvent e;
            try {
                e = AuditEvent.fromJson(json.readTree(line));
            } catch (IOException | RuntimeException bad) {
                malformed++;
                continue;
            }
            if (e.sandbox() == null || owner(e.sandbox()) == null) {
                unknown++;
                continue;
            }
            sink.record(e);
            accepted++;
        }
        return new Result(accepted, unknown, malformed);
    }

    private EgressAudit.Owner owner(String sandboxId) {
        return owners.get(sandboxId, id -> {
            try {
                return store.owner(UUID.fromString(id)).map(o -> new EgressAudit.Owner(o[0], o[1]));
            } catch (IllegalArgumentException notAnId) {
                return Optional.empty();
            }
        }).orElse(null);
    }
}
