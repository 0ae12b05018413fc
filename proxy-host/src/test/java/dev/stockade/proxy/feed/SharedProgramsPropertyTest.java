package dev.stockade.proxy.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.proxy.SandboxRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Differential property: a follower that shares programs and compiles on a pool decides, for every sandbox and host,
 * exactly as the sandbox's last set compiled on its own (no sharing, no cache) decides.
 */
class SharedProgramsPropertyTest {
    private static final long SEED = 30_2026L;
    private static final List<String> HOSTS = List.of("a.example.com", "b.example.com", "c.example.com",
            "d.example.com", "x.example.net");
    /** Documents that overlap and conflict: allows and explicit denies of the same hosts. */
    private static final List<JsonNode> DOCUMENTS = documents();

    /** One write: sandbox {@code sandbox} gets the documents at {@code documents} (indexes into the pool). */
    record Write(int sandbox, List<Integer> documents) {
    }

    @Test
    void theSharedFollowerDecidesLikeEachSetCompiledAlone() {
        Gen<Write> write = integers().between(0, 5).zip(lists().of(integers().between(0, DOCUMENTS.size() - 1))
                .ofSizeBetween(0, 3), Write::new);
        QuickTheory.qt().withFixedSeed(SEED).withExamples(100)
                .forAll(lists().of(write).ofSizeBetween(1, 20))
                .checkAssert(this::agrees);
    }

    private void agrees(List<Write> writes) {
        SandboxRegistry registry = SandboxRegistry.dynamic();
        FeedApplier follower = new FeedApplier(registry, names -> { }, line -> { }, 3);
        Map<String, SandboxSet> last = new LinkedHashMap<>();
        long version = 0;
        for (Write w : writes) {
            List<JsonNode> grants = new ArrayList<>();
            w.documents().forEach(i -> grants.add(DOCUMENTS.get(i)));
            SandboxSet set = FeedApplierTest.set(++version, "sb-" + w.sandbox(), grants);
            follower.submit(set, s -> { });
            last.put(set.sandboxId(), set);
        }
        follower.settle();
        for (SandboxSet set : last.values()) {
            var alone = FeedApplierTest.compiledAlone(set).program();
            var shared = registry.identify("Bearer " + FeedApplierTest.token(set.sandboxId())).orElseThrow()
                    .enforcement().get().program();
            for (String host : HOSTS) {
                EgressRequest r = EgressRequest.connection("https", host, 443, host, null);
                Decision expected = alone.decideConnection(r);
                Decision actual = shared.decideConnection(r);
                assertThat(actual.allowed()).as("%s -> %s", set, host).isEqualTo(expected.allowed());
                assertThat(actual.reason()).as("%s -> %s", set, host).isEqualTo(expected.reason());
            }
        }
        assertThat(follower.size()).isEqualTo(last.size());
    }

    private static List<JsonNode> documents() {
        List<JsonNode> out = new ArrayList<>();
        for (String host : HOSTS.subList(0, 4)) {
            out.add(FeedApplierTest.allow(host));
            out.add(FeedApplierTest.deny(host));
        }
        out.add(FeedApplierTest.allow("*.example.com"));
        return out;
    }
}
