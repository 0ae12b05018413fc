package dev.stockade.api.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The subtree walk finds what the JDK's {@link ProcessHandle#descendants()} finds (the JDK reads every process on the
 * host; the walk reads only the subtree's own files), and killing it leaves none of them running.
 */
@Timeout(60)
class ProcessTreeTest {
    /** Two children and two grandchildren (one under a nested shell), then the tree's size, once all have started. */
    private static final String TREE = "sleep 60 & sh -c 'sleep 60 & sleep 60 & wait' & "
            + "while [ \"$(cat /proc/$$/task/*/children | wc -w)\" -lt 2 ]; do :; done; "
            + "while [ \"$(cat /proc/$!/task/*/children | wc -w)\" -lt 2 ]; do :; done; echo started; wait";

    @Test
    void theWalkFindsWhatTheJdkFindsParentsFirst() throws Exception {
        Process root = startTree();
        try {
            List<Long> walked = ProcessTree.descendants(root.pid());
            List<Long> jdk = root.descendants().map(ProcessHandle::pid).toList();
            assertThat(walked).hasSize(4).containsExactlyInAnyOrderElementsOf(jdk);
            for (int i = 0; i < walked.size(); i++) {
                long parent = ProcessHandle.of(walked.get(i)).flatMap(ProcessHandle::parent).orElseThrow().pid();
                assertThat(parent == root.pid() || walked.subList(0, i).contains(parent))
                        .as("the parent of %d comes before it", walked.get(i)).isTrue();
            }
            assertThat(ProcessTree.children(root.pid())).hasSize(2);
            assertThat(ProcessTree.firstChild(root.pid())).isIn(ProcessTree.children(root.pid()));
        } finally {
            root.destroyForcibly();
        }
    }

    @Test
    void killingTheDescendantsLeavesNoneRunningAndAGoneProcessHasNone() throws Exception {
        Process root = startTree();
        List<ProcessHandle> before = root.descendants().toList();
        assertThat(before).hasSize(4);
        ProcessTree.killDescendants(root.pid());
        for (ProcessHandle h : before) {
            assertThat(h.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
        }
        root.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(ProcessTree.descendants(root.pid())).isEmpty();
        assertThat(ProcessTree.firstChild(root.pid())).isEqualTo(-1);
    }

    private static Process startTree() throws IOException {
        Process p = new ProcessBuilder("/bin/sh", "-c", TREE).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("started");
        return p;
    }
}
