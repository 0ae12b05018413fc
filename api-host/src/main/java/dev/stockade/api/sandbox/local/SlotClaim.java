package dev.stockade.api.sandbox.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What one slot file under {@code /run/stockade/slots} records: which platform holds the slot (its identity, kept in
 * its data directory so that it survives restarts), which process of it wrote the claim, and the sandbox the slot
 * serves ({@code ""} while it waits in the warm pool). Every platform on the host shares the folder, so a platform
 * reclaims only the claims whose {@link #owner} is its own, or whose owner can never come back.
 *
 * @param owner   the platform's identity ({@code <data-dir>/sandboxes/owner-id})
 * @param dataDir the platform's data directory, to tell whether that platform can still come back
 * @param run     this run of the platform (a provisioner's lifetime): claims of earlier runs are stale
 * @param pid     the process that wrote the claim
 * @param started when that process started (epoch milliseconds), so a reused pid is not taken for it
 * @param sandbox the sandbox the slot serves, or {@code ""} for a warm-pool entry
 */
record SlotClaim(String owner, String dataDir, String run, long pid, long started, String sandbox) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A claim of a new run of the platform {@code owner}, in this process. */
    static SlotClaim newRun(String owner, Path dataDir) {
        ProcessHandle self = ProcessHandle.current();
        return new SlotClaim(owner, dataDir.toAbsolutePath().toString(), java.util.UUID.randomUUID().toString(),
                self.pid(), started(self), "");
    }

    SlotClaim forSandbox(String id) {
        return new SlotClaim(owner, dataDir, run, pid, started, id);
    }

    boolean pooled() {
        return sandbox.isEmpty();
    }

    /**
     * Whether the claim's platform can never come back for it: its process is gone and its data directory (hence its
     * identity) no longer exists. Such claims are garbage any platform may clear.
     */
    boolean abandoned() {
        boolean alive = ProcessHandle.of(pid).map(h -> started(h) == started).orElse(false);
        return !alive && !Files.exists(Path.of(dataDir));
    }

    String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a slot claim always serializes", e);
        }
    }

    /** The claim a slot file holds; empty for a file of another format (an older platform's: never ours to touch). */
    static Optional<SlotClaim> parse(String text) {
        if (!text.startsWith("{")) {
            return Optional.empty();
        }
        try {
            SlotClaim c = JSON.readValue(text, SlotClaim.class);
            return c.owner() == null || c.dataDir() == null || c.run() == null || c.sandbox() == null ? Optional.empty() : Optional.of(c);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    private static long started(ProcessHandle h) {
        return h.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    }
}
