package dev.stockade.api.sandbox;

import dev.stockade.api.kernel.audit.Actor;
import dev.stockade.api.kernel.audit.AuditLog;
import io.micronaut.scheduling.annotation.Scheduled;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The auto-stop and auto-delete timers. Nothing is scheduled in memory: every replica looks for due sandboxes on an
 * interval ({@code sandbox.timers.interval}) and acts on the rows it locked ({@code FOR UPDATE SKIP LOCKED}) and
 * moved in the same transaction, so a timer fires once however many replicas run, survives restarts, and follows a
 * timer changed by an update at once. Time is the injected {@link Clock}.
 */
@Singleton
record SandboxTimers(SandboxStore store, SandboxWrites writes, SandboxWorker worker, AuditLog audit,
        TransactionOperations<Connection> tx, Clock clock) {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxTimers.class);

    @Scheduled(fixedDelay = "${sandbox.timers.interval:15s}", initialDelay = "${sandbox.timers.interval:15s}")
    void tick() {
        try {
            fire();
        } catch (RuntimeException e) {
            LOG.error("sandbox timers failed this round", e);
        }
    }

    /** Stops idle sandboxes and deletes long-stopped ones that are due now; returns {stopped, deleted}. */
    public int[] fire() {
        Instant now = clock.instant();
        List<UUID> stopped = tx.executeWrite(st -> {
            List<UUID> moved = new ArrayList<>();
            for (UUID id : store.dueToStop(now)) {
                if (store.transition(id, SandboxState.Transition.AUTO_STOP, "", "auto-stop", now)) {
                    Sandbox s = store.find(id).orElseThrow();
                    audit.record(s.event("auto-stop", Actor.PLATFORM).details(Map.of("name", s.name())).build());
                    moved.add(id);
                }
            }
            return moved;
        });
        stopped.forEach(worker::stop);
        List<UUID> deleted = tx.executeWrite(st -> {
            List<UUID> gone = new ArrayList<>();
            for (UUID id : store.dueToDelete(now)) {
                Sandbox s = store.find(id).orElseThrow();
                writes.erase(s);
                audit.record(s.event("auto-delete", Actor.PLATFORM).details(Map.of("name", s.name())).build());
                gone.add(id);
            }
            return gone;
        });
        deleted.forEach(worker::delete);
        return new int[] {stopped.size(), deleted.size()};
    }
}
