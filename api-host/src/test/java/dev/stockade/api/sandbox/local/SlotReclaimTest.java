package dev.stockade.api.sandbox.local;

import static dev.stockade.api.sandbox.local.LocalPlatforms.platform;
import static dev.stockade.api.sandbox.local.LocalPlatforms.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two platforms (two data directories) share this host's slots folder, bridge and namespaces. A platform that died
 * with a sandbox deleted but not yet cleaned up gets it back at its next start (slot, namespace, veth, cgroup,
 * volume), together with its warm-pool entries; the other platform's slots and running sandbox stay as they were.
 * The warm pool hands its entries to starts, refills in the background, and leaves nothing behind a stop.
 */
class SlotReclaimTest {
    private static final Path SLOTS = Path.of("/run/stockade/slots");

    @TempDir
    Path dataA;
    @TempDir
    Path dataB;

    @BeforeAll
    static void tools() {
        Requires.bubblewrap();
        Requires.root();
    }

    @Test
    void aSandboxDeletedWhileItsPlatformWasDownIsReclaimedAtItsNextStartAndNoOtherPlatformsIsTouched()
            throws Exception {
        LocalProvisioner a1 = platform(dataA, 1);
        LocalProvisioner b = platform(dataB, 0);
        LocalProvisioner a2 = null;
        try {
            a1.recover(id -> true);
            String kept = UUID.randomUUID().toString();
            String gone = UUID.randomUUID().toString();
            String other = UUID.randomUUID().toString();
            a1.provision(spec(kept));
            a1.provision(spec(gone));
            b.provision(spec(other));
            Await.until("a warm-pool entry of A", () -> a1.warmReady() == 1);
            int goneSlot = a1.slotOf(gone).orElseThrow();
            int otherSlot = b.slotOf(other).orElseThrow();
            String ownerA = HostSlots.ownerOf(dataA);
            List<Integer> heldByA = slotsOf(ownerA);
            assertThat(heldByA).hasSize(3).contains(goneSlot); // two sandboxes and the pool entry
            SlotClaim otherClaim = claim(otherSlot);

            Path cgroup = SandboxCgroups.memoryGroupOf(a1.initPid(gone).orElseThrow());
            assertThat(cgroup).isDirectory();
            // A dies: its sandboxes die with it (bubblewrap's --die-with-parent), nothing is cleaned up
            for (int slot : heldByA) {
                killSandboxesIn(slot);
            }
            assertThat(hasNetwork(goneSlot)).isTrue();

            // while A was down, `gone` was deleted from its database; at A's next start everything of it goes
            a2 = platform(dataA, 0);
            a2.recover(kept::equals);
            assertThat(slotsOf(ownerA)).isEmpty();
            for (int slot : heldByA) {
                assertThat(hasNetwork(slot)).isFalse();
                assertThat(links()).doesNotContain("vn" + slot);
            }
            assertThat(cgroup).doesNotExist();
            assertThat(dataA.resolve("sandboxes").resolve(gone)).doesNotExist();
            assertThat(dataA.resolve("sandboxes").resolve(kept).resolve("volume")).isDirectory();

            // B: its slot file, namespace, veth and sandbox are untouched
            assertThat(claim(otherSlot)).isEqualTo(otherClaim);
            assertThat(hasNetwork(otherSlot)).isTrue();
            assertThat(links()).contains("vn" + otherSlot);
            assertThat(run(b.exec(other, new ExecRequest(List.of("echo", "alive"), false, 0, 0)))).isEqualTo("alive\n");
        } finally {
            b.stopAll();
            if (a2 != null) {
                a2.stopAll();
            }
            a1.stopAll(); // what it held was reclaimed: its stop touches nothing
        }
        assertThat(slotsOf(HostSlots.ownerOf(dataB))).as("a stop leaves no slot behind").isEmpty();
    }

    @Test
    void aWarmEntryReclaimedAndTakenByAnotherPlatformIsNeitherHandedOutNorTornDown() throws Exception {
        LocalProvisioner a1 = platform(dataA, 1);
        LocalProvisioner a2 = platform(dataA, 0);
        LocalNetwork network = new LocalNetwork("10.213.0.1/16");
        int pooled = -1;
        try {
            a1.recover(id -> true);
            Await.until("a warm-pool entry of A", () -> a1.warmReady() == 1);
            pooled = slotsOf(HostSlots.ownerOf(dataA)).get(0);
            // A's next run reclaims the entry as an earlier run's, and platform C claims the slot and makes its network
            a2.recover(id -> true);
            SlotClaim c = SlotClaim.newRun("platform-c", dataB);
            Files.writeString(SLOTS.resolve(Integer.toString(pooled)), c.toJson(), StandardOpenOption.CREATE_NEW);
            network.attach(pooled, 9, true);

            String id = UUID.randomUUID().toString();
            a1.provision(spec(id));
            assertThat(a1.slotOf(id).orElseThrow()).as("the lost entry is not handed out").isNotEqualTo(pooled);
            assertThat(run(a1.exec(id, new ExecRequest(List.of("echo", "alive"), false, 0, 0)))).isEqualTo("alive\n");
            a1.stopAll();
            assertThat(claim(pooled)).isEqualTo(c);
            assertThat(hasNetwork(pooled)).isTrue();
            assertThat(links()).contains("vn" + pooled);
        } finally {
            a1.stopAll();
            a2.stopAll();
            if (pooled >= 0 && SlotClaim.parse(read(SLOTS.resolve(Integer.toString(pooled))))
                    .filter(held -> held.owner().equals("platform-c")).isPresent()) {
                network.detach(pooled);
                Files.deleteIfExists(SLOTS.resolve(Integer.toString(pooled)));
            }
        }
    }

    @Test
    void aStartTakesAWarmEntryThePoolRefillsInTheBackgroundAndAStopTakesItAllDown() throws Exception {
        LocalProvisioner a = platform(dataA, 2);
        String owner = HostSlots.ownerOf(dataA);
        List<Integer> pooled;
        try {
            a.recover(id -> true);
            Await.until("two warm entries", () -> a.warmReady() == 2);
            pooled = slotsOf(owner);
            assertThat(pooled).hasSize(2);
            for (int slot : pooled) {
                assertThat(claim(slot).sandbox()).isEmpty();
                assertThat(hasNetwork(slot)).isTrue();
                // held by a process, not a mount: every bubblewrap start copies the host's mount table
                assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain("/stk-n" + slot + " ");
                // its launcher already waits in the slot's group: bubblewrap, reading its arguments from stdin
                assertThat(SandboxCgroups.commandsIn(SandboxCgroups.memoryGroupOfSlot(slot)))
                        .containsExactly("bwrap --args 0 /bin/sh -c " + Bubblewrap.INIT);
            }
            String id = UUID.randomUUID().toString();
            a.provision(spec(id));
            int slot = a.slotOf(id).orElseThrow();
            assertThat(pooled).contains(slot);
            assertThat(claim(slot).sandbox()).isEqualTo(id);
            long init = a.initPid(id).orElseThrow();
            Path group = SandboxCgroups.memoryGroupOf(init);
            assertThat(group).isEqualTo(SandboxCgroups.memoryGroupOfSlot(slot));
            Path limit = group.resolve(Files.exists(group.resolve("memory.max")) ? "memory.max"
                    : "memory.limit_in_bytes");
            assertThat(Files.readString(limit).strip()).isEqualTo(Long.toString(128L << 20));
            // the sandbox's environment came with its arguments; nothing of it on a command line
            assertThat(Files.readString(Path.of("/proc", Long.toString(init), "environ")))
                    .contains("STOCKADE_SANDBOX_ID=" + id, "HTTPS_PROXY=http://sandbox:tok@");
            assertThat(SandboxCgroups.commandsIn(group)).noneMatch(c -> c.contains("tok"));
            assertThat(dataA.resolve("sandboxes").resolve(id).resolve("console.log")).exists();
            Await.until("the pool refilled", () -> a.warmReady() == 2);
            assertThat(slotsOf(owner)).hasSize(3);
        } finally {
            a.stopAll();
        }
        assertThat(slotsOf(owner)).isEmpty();
        for (int slot : pooled) {
            assertThat(hasNetwork(slot)).isFalse();
            assertThat(SandboxCgroups.memoryGroupOfSlot(slot)).doesNotExist();
        }
    }

    @Test
    void slotsOfAPlatformWhoseProcessEndedAndWhoseDataDirectoryIsGoneAreClearedByAnyPlatform() throws Exception {
        // a platform C that ran in a process now gone, from a data directory since removed, left a slot with a network
        Path dataC = Files.createTempDirectory("stockade-gone");
        LocalNetwork network = new LocalNetwork("10.213.0.1/16");
        network.ensureBridge();
        HostSlots c = new HostSlots(SLOTS, network.capacity(), HostSlots.ownerOf(dataC), dataC);
        int slot = c.claim("");
        network.attach(slot, 9, false);
        Process ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(10, TimeUnit.SECONDS)).isTrue();
        SlotClaim held = claim(slot);
        SlotClaim dead = new SlotClaim(held.owner(), held.dataDir(), held.run(), ended.pid(), 1L, "");
        Files.writeString(SLOTS.resolve(Integer.toString(slot)), dead.toJson());
        // while C's data directory exists, C may come back: nobody else touches the slot
        LocalProvisioner a = platform(dataA, 0);
        try {
            a.recover(id -> true);
            assertThat(claim(slot)).isEqualTo(dead);
            removeTree(dataC);
            a.recover(id -> true);
            assertThat(Files.exists(SLOTS.resolve(Integer.toString(slot)))).isFalse();
            assertThat(hasNetwork(slot)).isFalse();
            assertThat(links()).doesNotContain("vn" + slot);
        } finally {
            a.stopAll();
        }
    }

    private static void removeTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static List<Integer> slotsOf(String owner) throws IOException {
        List<Integer> held = new ArrayList<>();
        try (Stream<Path> files = Files.list(SLOTS)) {
            for (Path p : files.toList()) {
                String name = p.getFileName().toString();
                if (name.chars().allMatch(Character::isDigit)
                        && SlotClaim.parse(read(p)).filter(c -> c.owner().equals(owner)).isPresent()) {
                    held.add(Integer.parseInt(name));
                }
            }
        }
        return held;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException gone) {
            return "";
        }
    }

    private static SlotClaim claim(int slot) {
        return SlotClaim.parse(read(SLOTS.resolve(Integer.toString(slot)))).orElseThrow();
    }

    /** The processes in slot {@code slot}'s network namespace other than its holder: its sandbox's, if any. */
    private static List<Long> sandboxProcessesIn(int slot) {
        long holder = holderOf(slot);
        List<Long> found = new ArrayList<>();
        if (holder < 0) {
            return found;
        }
        String ns = netnsOf(holder);
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.toList()) {
                String name = p.getFileName().toString();
                if (name.chars().allMatch(Character::isDigit) && Long.parseLong(name) != holder
                        && ns.equals(netnsOf(Long.parseLong(name)))) {
                    found.add(Long.parseLong(name));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return found;
    }

    private static void killSandboxesIn(int slot) throws Exception {
        for (long pid : sandboxProcessesIn(slot)) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        Await.until("no sandbox process left in slot " + slot, () -> sandboxProcessesIn(slot).isEmpty());
    }

    /**
     * Whether slot {@code slot} has its network: a live holder (the pid its record names) in a namespace whose eth0
     * carries the slot's address.
     */
    private static boolean hasNetwork(int slot) {
        long holder = holderOf(slot);
        return holder > 0 && out("nsenter", "--net=/proc/" + holder + "/ns/net", "ip", "-o", "-4", "addr", "show",
                "eth0").contains(" " + new LocalNetwork("10.213.0.1/16").address(slot) + "/32 ");
    }

    private static long holderOf(int slot) {
        String pid = read(Path.of("/run/stockade/netns", Integer.toString(slot))).strip();
        return pid.isEmpty() || ProcessHandle.of(Long.parseLong(pid)).isEmpty() ? -1 : Long.parseLong(pid);
    }

    private static String netnsOf(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", "net")).toString();
        } catch (IOException gone) {
            return "";
        }
    }

    private static Set<String> links() {
        return Set.copyOf(out("ip", "-o", "link", "show").lines().map(l -> l.split(": ")[1].split("@")[0]).toList());
    }

    private static String out(String... argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(30, TimeUnit.SECONDS);
            return text;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String run(ExecProcess p) throws Exception {
        p.stdin().close();
        String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exit().get(30, TimeUnit.SECONDS)).isZero();
        return out;
    }
}
