package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.stockade.runtime.webhook.WebhookStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-subscription queue under concurrency: never more than 10 pending runs, every accepted run
 * executes exactly once, in acceptance order; deliver-only requests are neither queued nor limited.
 */
class WebhookQueueTest {
    /** Fixed, as every property of the project (docs/testing.md). */
    private static final long SEED = 0x5EED_0151L;
    @TempDir
    Path home;
    ProviderDouble provider;
    TestRuntime rt;
    final AtomicInteger subscriptions = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble().holdChats();
        rt = new TestRuntime(home, TestRuntime.azure(provider)).start();
        rt.patch("/agents/webhook-receiver", "{\"enabled\":true}");
    }

    @AfterEach
    void stop() {
        provider.release(10_000);
        rt.close();
        provider.close();
    }

    @Test
    void neverMoreThanTenPendingAndRunsExecuteInAcceptanceOrder() {
        qt().withFixedSeed(SEED).withExamples(6).withShrinkCycles(0).forAll(integers().between(1, 40))
                .checkAssert(this::burst);
    }

    private void burst(int requests) {
        try {
            String name = "q" + subscriptions.incrementAndGet();
            rt.post("/agents/webhook-subscriptions", "{\"name\":\"" + name + "\",\"deliverTo\":\"chat\","
                    + "\"prompt\":\"" + name + " #{n}\"}");
            int before = provider.chats().size();
            List<TestRuntime.Answer> answers = concurrently(requests, i -> rt.post("/agents/webhooks/" + name,
                    "{\"n\":" + i + "}"));
            long accepted = answers.stream().filter(a -> a.status() == 202).count();
            long refused = answers.stream().filter(a -> a.status() == 429).count();
            // Nothing finishes while the provider holds every chat, so exactly min(n, 10) fit.
            assertThat(accepted).isEqualTo(Math.min(requests, WebhookStore.MAX_PENDING));
            assertThat(accepted + refused).isEqualTo(requests);
            List<WebhookStore.Run> runs = new WebhookStore(rt.runtime.store()).runs(name);
            assertThat(runs).hasSize((int) accepted);
            provider.release((int) accepted);
            TestRuntime.await(() -> done(name) == accepted);
            List<String> executed = provider.chats().subList(before, before + (int) accepted).stream()
                    .map(WebhookReceiverTest::lastUserText).filter(p -> p.startsWith(name + " #")).toList();
            List<String> expected = new ArrayList<>();
            for (WebhookStore.Run r : runs) {
                expected.add(name + " #" + ProviderDouble.JSON.readTree(r.payload()).path("n").asText());
            }
            assertThat(executed).containsExactlyElementsOf(expected);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private long done(String name) {
        try {
            return new WebhookStore(rt.runtime.store()).runs(name).stream().filter(r -> r.status().equals("done"))
                    .count();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void deliverOnlyIsNeitherQueuedNorLimited() throws Exception {
        rt.post("/agents/webhook-subscriptions", "{\"name\":\"fast\",\"deliverOnly\":true,\"prompt\":\"{n}\"}");
        List<TestRuntime.Answer> answers = concurrently(30, i -> rt.post("/agents/webhooks/fast", "{\"n\":" + i + "}"));
        assertThat(answers).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.json().path("status").asText()).isEqualTo("delivered");
        });
        assertThat(new WebhookStore(rt.runtime.store()).runs("fast")).isEmpty();
    }

    @Test
    void eachSubscriptionHasItsOwnBound() throws Exception {
        for (String n : List.of("a", "b")) {
            rt.post("/agents/webhook-subscriptions", "{\"name\":\"" + n + "\",\"deliverTo\":\"chat\"}");
        }
        for (int i = 0; i < 10; i++) {
            assertThat(rt.post("/agents/webhooks/a", "{}").status()).isEqualTo(202);
        }
        assertThat(rt.post("/agents/webhooks/a", "{}").status()).isEqualTo(429);
        assertThat(rt.post("/agents/webhooks/b", "{}").status()).isEqualTo(202);
        provider.release(1);
        TestRuntime.await(() -> done("a") + done("b") >= 1);
        // A finished run frees a slot on its own subscription only once it is done.
        TestRuntime.await(() -> {
            try {
                return done("a") == 0 || rt.post("/agents/webhooks/a", "{}").status() == 202;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    interface Call {
        TestRuntime.Answer call(int i) throws Exception;
    }

    static List<TestRuntime.Answer> concurrently(int n, Call call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(n, 16));
        try {
            List<Future<TestRuntime.Answer>> fs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                fs.add(pool.submit((Callable<TestRuntime.Answer>) () -> call.call(k)));
            }
            List<TestRuntime.Answer> out = new ArrayList<>();
            for (Future<TestRuntime.Answer> f : fs) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

}
