package dev.stockade.api.sandbox.local;

import static dev.stockade.api.sandbox.local.LocalPlatforms.platform;
import static dev.stockade.api.sandbox.local.LocalPlatforms.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slot's cgroup holds everything of its sandbox, so a stop, a reclaim and a new holder of the slot kill whatever is
 * in it, not only the sandbox's process tree: a namespace init that bubblewrap forked just as its launcher was killed
 * lives on outside that tree, and once ran on in the group of the slot's next sandbox. Here a stray process, put into
 * the group by the test, stands for it.
 */
class SlotGroupSweepTest {
    private static final Path SLOTS = Path.of("/run/stockade/slots");

    @TempDir
    Path data;
    private Process stray;

    @BeforeAll
    static void tools() {
        Requires.bubblewrap();
        Requires.root();
    }

    @AfterEach
    void noStrayLeft() {
        if (stray != null) {
            stray.destroyForcibly();
        }
    }

    /** Starts a process and moves it into {@code group}, as something of an earlier sandbox would be there. */
    private Process strayIn(Path group) throws IOException {
        stray = new ProcessBuilder("sleep", "600").start();
        Files.writeString(group.resolve("cgroup.procs"), Long.toString(stray.pid()));
        assertThat(Files.readAllLines(group.resolve("cgroup.procs"))).contains(Long.toString(stray.pid()));
        return stray;
    }

    @Test
    void aStopKillsWhateverElseIsInTheSlotsGroup() throws Exception {
        LocalProvisioner p = platform(data, 0);
        try {
            p.recover(id -> true);
            String id = UUID.randomUUID().toString();
            p.provision(spec(id));
            int slot = p.slotOf(id).orElseThrow();
            Process s = strayIn(SandboxCgroups.memoryGroupOfSlot(slot));
            p.stop(id);
            assertThat(s.waitFor(10, TimeUnit.SECONDS)).as("the stray process was killed").isTrue();
            assertThat(SandboxCgroups.memoryGroupOfSlot(slot)).as("and the emptied group removed").doesNotExist();
        } finally {
            p.stopAll();
        }
    }

    @Test
    void aSlotsNewHolderFindsItsGroupEmptiedOfWhatAnEarlierHolderLeft() throws Exception {
        int next = lowestFreeSlot(); // a new platform's first claim: slots are tried from 0
        Path group = SandboxCgroups.memoryGroupOfSlot(next);
        Files.createDirectories(group);
        Process s = strayIn(group);
        LocalProvisioner p = platform(data, 0);
        try {
            p.recover(id -> true);
            String id = UUID.randomUUID().toString();
            p.provision(spec(id));
            assertThat(p.slotOf(id)).hasValue(next);
            assertThat(s.waitFor(10, TimeUnit.SECONDS)).as("the stray process was killed").isTrue();
            long init = p.initPid(id).orElseThrow();
            assertThat(SandboxCgroups.memoryGroupOf(init)).isEqualTo(group);
            assertThat(Files.readAllLines(group.resolve("cgroup.procs"))).contains(Long.toString(init))
                    .doesNotContain(Long.toString(s.pid()));
        } finally {
            p.stopAll();
        }
        assertThat(group).doesNotExist();
    }

    @Test
    void aPlatformsNextRunKillsWhatItsEarlierRunLeftInTheSlotsItReclaims() throws Exception {
        LocalProvisioner earlier = platform(data, 0);
        LocalProvisioner next = null;
        try {
            earlier.recover(id -> true);
            String id = UUID.randomUUID().toString();
            earlier.provision(spec(id));
            int slot = earlier.slotOf(id).orElseThrow();
            Process s = strayIn(SandboxCgroups.memoryGroupOfSlot(slot));
            // the earlier run is gone (its provisioner is never used again); the next one reclaims what it held
            next = platform(data, 0);
            next.recover(known -> false);
            assertThat(s.waitFor(10, TimeUnit.SECONDS)).as("the stray process was killed").isTrue();
            assertThat(SandboxCgroups.memoryGroupOfSlot(slot)).doesNotExist();
            assertThat(Files.exists(SLOTS.resolve(Integer.toString(slot)))).isFalse();
        } finally {
            if (next != null) {
                next.stopAll();
            }
            earlier.stopAll(); // what it held was reclaimed: its stop touches nothing
        }
    }

    private static int lowestFreeSlot() {
        int i = 0;
        while (Files.exists(SLOTS.resolve(Integer.toString(i)))) {
            i++;
        }
        return i;
    }
}
