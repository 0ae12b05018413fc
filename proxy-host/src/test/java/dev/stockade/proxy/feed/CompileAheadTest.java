package dev.stockade.proxy.feed;

import static dev.stockade.proxy.feed.FeedApplierTest.allow;
import static dev.stockade.proxy.feed.FeedApplierTest.set;
import static dev.stockade.proxy.feed.FeedApplierTest.token;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.proxy.SandboxRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A follower that serves only some of the sandboxes it follows (the platform's own proxy serves the sandboxes on its
 * host; the rest send their traffic elsewhere) compiles in the background only the programs of those it serves; any
 * other program compiles at its first decision, and decides as it would have.
 */
class CompileAheadTest {
    private final SandboxRegistry registry = SandboxRegistry.dynamic();
    private final FeedApplier applier = new FeedApplier(registry, names -> { }, line -> { }, 2,
            sandboxId -> sandboxId.startsWith("here-"));

    @Test
    void onlyTheServedSandboxesProgramsCompileAheadAndTheOthersAtTheirFirstDecision() {
        applier.apply(set(applier, 1, "here-1", List.of(allow("a.example.com"))));
        applier.apply(set(applier, 2, "away-1", List.of(allow("b.example.com"))));
        applier.apply(set(applier, 3, "away-2", List.of(allow("c.example.com"))));
        applier.settleCompiled();
        assertThat(applier.compilations()).as("only here-1's list").isEqualTo(1);

        assertThat(allowed("away-1", "b.example.com")).isTrue();
        assertThat(allowed("away-1", "c.example.com")).isFalse();
        assertThat(applier.compilations()).as("away-1's list, at its first decision").isEqualTo(2);
        assertThat(allowed("here-1", "a.example.com")).isTrue();
        assertThat(applier.compilations()).isEqualTo(2);
    }

    @Test
    void aListAServedSandboxSharesCompilesAheadForEveryHolder() {
        applier.apply(set(applier, 1, "away-1", List.of(allow("a.example.com"))));
        applier.settleCompiled();
        assertThat(applier.compilations()).isZero();

        applier.apply(set(applier, 2, "here-1", List.of(allow("a.example.com"))));
        applier.settleCompiled();
        assertThat(applier.compilations()).isEqualTo(1);
        assertThat(allowed("away-1", "a.example.com")).isTrue();
        assertThat(applier.compilations()).as("shared, compiled once").isEqualTo(1);
    }

    private boolean allowed(String sandboxId, String host) {
        return registry.identify("Bearer " + token(sandboxId)).orElseThrow().enforcement().get().program()
                .decideConnection(EgressRequest.connection("https", host, 443, host, null)).allowed();
    }
}
