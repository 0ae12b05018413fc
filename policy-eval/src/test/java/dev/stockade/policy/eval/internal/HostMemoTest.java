package dev.stockade.policy.eval.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The host memo: answers only what was put for the same text, keeps two hosts per pair, never tears. */
class HostMemoTest {
    private static final int MISS = -4;
    private static final int ANY = dev.stockade.policy.glob.HostPort.ANY;

    @Test
    void answersOnlyWhatWasPutForTheSameText() {
        HostMemo memo = new HostMemo(64);
        assertThat(memo.get("a.example.com", ANY, MISS)).isEqualTo(MISS);
        memo.put("a.example.com", ANY, 7);
        assertThat(memo.get(new String("a.example.com".toCharArray()), ANY, MISS)).isEqualTo(7);
        assertThat(memo.get("b.example.com", ANY, MISS)).isEqualTo(MISS);
        memo.put("x".repeat(254), ANY, 3);
        assertThat(memo.get("x".repeat(254), ANY, MISS)).as("longer than any name: not kept").isEqualTo(MISS);
    }

    @Test
    void oneHostOnTwoPortsIsTwoKeys() {
        HostMemo memo = new HostMemo(64);
        memo.put("a.example.com", 443, 1);
        memo.put("a.example.com", 8443, 2);
        assertThat(memo.get("a.example.com", 443, MISS)).isEqualTo(1);
        assertThat(memo.get("a.example.com", 8443, MISS)).isEqualTo(2);
        assertThat(memo.get("a.example.com", 22, MISS)).isEqualTo(MISS);
        assertThat(memo.get("a.example.com", ANY, MISS)).isEqualTo(MISS);
    }

    @Test
    void aPairKeepsItsFirstHostAndTheLatestOther() {
        HostMemo memo = new HostMemo(2); // one pair: every host competes for it
        memo.put("first.example", ANY, 1);
        memo.put("second.example", ANY, 2);
        memo.put("third.example", ANY, 3);
        assertThat(memo.get("first.example", ANY, MISS)).isEqualTo(1);
        assertThat(memo.get("second.example", ANY, MISS)).isEqualTo(MISS);
        assertThat(memo.get("third.example", ANY, MISS)).isEqualTo(3);
    }

    /**
     * Writers and readers race on one pair; a reader must see either a miss or the row that belongs to
     * the host it asked for, never another host's row (a torn read of key and row).
     */
    @Test
    @Timeout(60)
    void concurrentWritersNeverTearAnAnswer() throws Exception {
        HostMemo memo = new HostMemo(2);
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            hosts.add("h" + i + ".example");
        }
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t;
            results.add(pool.submit(() -> {
                start.await();
                int hits = 0;
                for (int i = 0; i < 400_000; i++) {
                    int k = (i * 7 + offset) & 15;
                    String host = hosts.get(k);
                    int found = memo.get(host, ANY, MISS);
                    if (found == MISS) {
                        memo.put(host, ANY, k);
                    } else if (found != k) {
                        throw new AssertionError(host + " answered " + found);
                    } else {
                        hits++;
                    }
                }
                return hits;
            }));
        }
        start.countDown();
        int hits = 0;
        for (Future<Integer> f : results) {
            hits += f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(hits).as("the memo answered some reads").isPositive();
    }
}
