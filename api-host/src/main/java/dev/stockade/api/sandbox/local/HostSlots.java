package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The network slots of this host: one file per slot (its number, which fixes the sandbox's address and the names of
 * its namespace and veth) in a folder every platform on the host shares, created atomically so that no two platforms
 * hold one slot, and holding a {@link SlotClaim} that says whose it is. {@code /run} is emptied at boot, with the
 * namespaces.
 */
final class HostSlots {
    /** A slot this platform holds, as its file says. */
    record Held(int slot, SlotClaim claim) {
    }

    private final Path dir;
    private final Path scratch;
    private final int capacity;
    private final SlotClaim mine;
    /** Where the next search starts: round robin, so a sparse folder needs one try. */
    private final AtomicInteger next = new AtomicInteger();

    /** {@code owner}: this platform's identity; {@code dataDir}: its data directory. */
    HostSlots(Path dir, int capacity, String owner, Path dataDir) {
        this.dir = dir;
        this.scratch = dir.resolveSibling("slots-writing");
        this.capacity = capacity;
        this.mine = SlotClaim.newRun(owner, dataDir);
    }

    /** The platform's identity kept in {@code <dataDir>/sandboxes/owner-id}, made on first use. */
    static String ownerOf(Path dataDir) throws IOException {
        Path file = dataDir.resolve("sandboxes").resolve("owner-id");
        Files.createDirectories(file.getParent());
        try {
            Files.writeString(file, UUID.randomUUID().toString(), StandardOpenOption.CREATE_NEW);
        } catch (FileAlreadyExistsException known) {
            // made by an earlier run: the identity survives restarts
        }
        return Files.readString(file).strip();
    }

    /** Claims a free slot for {@code sandbox} ({@code ""}: for the warm pool). */
    int claim(String sandbox) throws ProvisionException {
        try {
            Files.createDirectories(dir);
            String text = mine.forSandbox(sandbox).toJson();
            for (int tried = 0; tried < capacity; tried++) {
                int i = Math.floorMod(next.getAndIncrement(), capacity);
                try {
                    Files.writeString(dir.resolve(Integer.toString(i)), text, StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.WRITE);
                    return i;
                } catch (FileAlreadyExistsException taken) {
                    // the next one
                }
            }
            throw new ProvisionException("no free sandbox address in sandbox.local.network");
        } catch (IOException e) {
            throw new ProvisionException("cannot assign the sandbox's address: " + e.getMessage());
        }
    }

    /**
     * Records that {@code slot}, held by this platform, now serves {@code sandbox} (an atomic replace); refused when
     * the slot's file no longer carries this run's claim, so a slot another platform took over is never written.
     */
    void assign(int slot, String sandbox) throws ProvisionException {
        if (!ours(slot)) {
            throw new ProvisionException("the sandbox's network slot " + slot + " is no longer this platform's");
        }
        try {
            Files.createDirectories(scratch);
            Path tmp = scratch.resolve(slot + "." + ProcessHandle.current().pid());
            Files.writeString(tmp, mine.forSandbox(sandbox).toJson());
            Files.move(tmp, dir.resolve(Integer.toString(slot)), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ProvisionException("cannot record the sandbox's address: " + e.getMessage());
        }
    }

    /**
     * Whether {@code slot}'s file carries this run's claim. Only then may this run take the slot's network down: once
     * another platform reclaimed the slot (and perhaps a third claimed it again), its namespace is not ours.
     */
    boolean ours(int slot) {
        return read(slot).filter(c -> c.owner().equals(mine.owner()) && c.run().equals(mine.run())).isPresent();
    }

    /** Frees a slot (its network is gone first: a free slot never has a namespace). */
    void free(int slot) {
        try {
            Files.deleteIfExists(dir.resolve(Integer.toString(slot)));
        } catch (IOException e) {
            // a leaked slot costs one address until the host reboots or this platform starts again
        }
    }

    /**
     * Runs {@code cleanup} for a held slot and frees it, unless its file changed hands since it was read. A marker
     * file keeps two platforms from reclaiming one slot at once; the slot number stays taken until its network is
     * gone, so no new claim can have its namespace removed under it.
     */
    void reclaim(Held held, Runnable cleanup) {
        Path marker = scratch.resolve("reclaiming-" + held.slot());
        try {
            Files.createDirectories(scratch);
            Files.writeString(marker, Long.toString(ProcessHandle.current().pid()), StandardOpenOption.CREATE_NEW);
        } catch (IOException busy) {
            return; // another platform reclaims it now
        }
        try {
            if (read(held.slot()).filter(held.claim()::equals).isPresent()) {
                cleanup.run();
                free(held.slot());
            }
        } finally {
            try {
                Files.deleteIfExists(marker);
            } catch (IOException e) {
                // a stale marker only keeps this one slot from being reclaimed again
            }
        }
    }

    /** The slots this platform holds that an earlier run of it claimed (this run's own claims are left alone). */
    List<Held> fromEarlierRuns() {
        return scan(c -> c.owner().equals(mine.owner()) && !c.run().equals(mine.run()));
    }

    /** The slots of platforms that can never come back for them ({@link SlotClaim#abandoned()}). */
    List<Held> abandoned() {
        return scan(c -> !c.owner().equals(mine.owner()) && c.abandoned());
    }

    /** What slot {@code slot}'s file says now, if it is in this format. */
    Optional<SlotClaim> read(int slot) {
        try {
            return SlotClaim.parse(Files.readString(dir.resolve(Integer.toString(slot))));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private List<Held> scan(java.util.function.Predicate<SlotClaim> which) {
        List<Held> found = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return found;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                String name = p.getFileName().toString();
                if (name.isEmpty() || name.length() > 6 || !name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                int slot = Integer.parseInt(name);
                read(slot).filter(which).ifPresent(c -> found.add(new Held(slot, c)));
            }
        } catch (IOException e) {
            // the folder went away: nothing to reclaim
        }
        return found;
    }
}
