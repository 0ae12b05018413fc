package dev.stockade.runtime.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With SQLite's automatic checkpoint off on the store's connection, the Checkpointer still moves the WAL into
 * the database: the WAL does not grow without bound under sustained writes, and what was committed is in the
 * database file for a reader that opens it afresh.
 */
class CheckpointerTest {
    @TempDir
    Path dir;

    private static long walFramesLeft(Path db) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
            rs.next();
            return rs.getLong(2) - rs.getLong(3); // frames in the WAL minus frames checkpointed
        }
    }

    /**
     * Waits until a checkpoint round that began after the burst has completed: two more rounds (the first may
     * have started mid-burst). A fixed sleep guessed the time and lost on a loaded machine.
     */
    private static void awaitRoundAfterBurst(Checkpointer checkpointer) {
        long target = checkpointer.completedRounds() + 2;
        Await.until("two checkpoint rounds after the burst", () -> checkpointer.completedRounds() >= target);
    }

    @Test
    void theWalIsCheckpointedOffTheCommitPathAndStaysBounded() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db)) {
            String row = "x".repeat(2000);
            long first = 0;
            long largest = 0;
            for (int round = 0; round < 6; round++) {
                for (int i = 0; i < 1500; i++) { // each commit appends its pages: far past 1,000 pages per burst
                    store.update("INSERT INTO memory (content, created_at) VALUES (?, '2026-11-25T00:00:00Z')", row);
                }
                long wal = Files.size(dir.resolve("agent.db-wal"));
                first = round == 0 ? wal : first;
                largest = Math.max(largest, wal);
                awaitRoundAfterBurst(store.checkpointer());
            }
            // Checkpointed between bursts, the WAL is reused from its start: six bursts take no more room than
            // one (without checkpoints it would hold all six).
            assertThat(largest).isLessThanOrEqualTo(first + first / 4);
            assertThat(walFramesLeft(db)).isZero();
            Integer rows = store.one("SELECT count(*) FROM memory", rs -> rs.getInt(1));
            assertThat(rows).isEqualTo(9000);
        }
    }
}
