package dev.stockade.api.kernel.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Requests that race for one unique name (issue 25, item 2): whichever route they come through, one wins and every
 * other answers {@code 409 conflict}, whether it lost at the route's own check or at the database's unique index.
 */
@MicronautTest(transactional = false)
class UniqueRaceTest extends PlatformTest {
    private static final int RACERS = 8;
    private static final int ROUNDS = 8;
    private static final String RACE_DETAIL = "another request may have taken it at the same time";

    private final ExecutorService pool = Executors.newFixedThreadPool(RACERS);

    @AfterAll
    void stop() {
        pool.shutdownNow();
    }

    /** Sends {@code RACERS} requests released at once; returns their answers. */
    private List<Http.Response> race(Function<Integer, Http.Response> request) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Http.Response>> sent = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            int n = i;
            sent.add(pool.submit(() -> {
                start.await();
                return request.apply(n);
            }));
        }
        start.countDown();
        List<Http.Response> out = new ArrayList<>();
        for (Future<Http.Response> f : sent) {
            out.add(f.get(60, TimeUnit.SECONDS));
        }
        return out;
    }

    /** Exactly one success, every other answer a conflict problem; returns how many lost at the unique index. */
    private static int oneWinner(List<Http.Response> answers, int success) {
        int wins = 0;
        int atIndex = 0;
        for (Http.Response r : answers) {
            if (r.status() == success) {
                wins++;
                continue;
            }
            assertThat(problem(r, 409)).as(r.raw()).isEqualTo("conflict");
            if (r.text("detail").contains(RACE_DETAIL)) {
                atIndex++;
                assertThat(r.text("detail")).startsWith("`name` is already taken");
            }
        }
        assertThat(wins).as("winners").isEqualTo(1);
        return atIndex;
    }

    @Test
    void concurrentCreatesAndRenamesToOneNameGiveOneWinnerAndConflicts() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "race");
        int lostAtIndex = 0;
        for (int round = 0; round < ROUNDS; round++) {
            String name = "created-" + round;
            lostAtIndex += oneWinner(race(i -> http.post("/v1/orgs/" + org + "/projects", owner,
                    Map.of("name", name))), 201);
        }
        for (int round = 0; round < ROUNDS; round++) {
            List<String> projects = new ArrayList<>();
            for (int i = 0; i < RACERS; i++) {
                projects.add(createProject(owner, org, "r" + round + "-" + i));
            }
            String name = "renamed-" + round;
            lostAtIndex += oneWinner(race(i -> http.patch("/v1/projects/" + projects.get(i), owner,
                    Map.of("name", name))), 200);
        }
        assertThat(http.get("/v1/orgs/" + org + "/projects", owner).body().path("items").findValuesAsText("name")
                .stream().filter(n -> n.startsWith("created-") || n.startsWith("renamed-"))).hasSize(2 * ROUNDS);
        // the races reached the database's unique index (not only the routes' own checks) at least once
        assertThat(lostAtIndex).isPositive();
    }
}
