package dev.stockade.proxy.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.proxy.SandboxRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Differential property: a follower fed documents by content hash (sent ahead, fetched when missing, sent whole as
 * an older feed does, or never to be had), sharing programs and compiling on a pool, decides for every sandbox and
 * host exactly as the sandbox's last documents compiled on their own decide; a sandbox listing a document that
 * cannot be had denies everything.
 */
class SharedProgramsPropertyTest {
    private static final long SEED = 30_2026L;
    private static final List<String> HOSTS = List.of("a.example.com", "b.example.com", "c.example.com",
            "d.example.com", "x.example.net");
    /** Documents that overlap and conflict: allows and explicit denies of the same hosts. */
    private static final List<JsonNode> DOCUMENTS = documents();

    /** How the follower comes to have a document in one trial. */
    enum Delivery { SENT_BY_HASH, FETCHED, SENT_WHOLE, NEVER }

    /** One change: sandbox {@code sandbox} gets the documents at {@code documents} (pool indexes), or is removed. */
    record Change(int sandbox, List<Integer> documents, boolean remove) {
    }

    @Test
    void theSharedFollowerDecidesLikeEachSetCompiledAlone() {
        Gen<Change> change = integers().between(0, 5)
                .zip(lists().of(integers().between(0, DOCUMENTS.size() - 1)).ofSizeBetween(0, 3),
                        booleans().all().zip(integers().between(0, 9), (r, n) -> r && n == 0), Change::new);
        Gen<List<Delivery>> deliveries = lists().of(arbitrary().enumValues(Delivery.class))
                .ofSize(DOCUMENTS.size());
        QuickTheory.qt().withFixedSeed(SEED).withExamples(100)
                .forAll(deliveries, lists().of(change).ofSizeBetween(1, 25))
                .checkAssert(this::agrees);
    }

    private void agrees(List<Delivery> delivery, List<Change> changes) {
        SandboxRegistry registry = SandboxRegistry.dynamic();
        FeedApplier follower = new FeedApplier(registry, names -> { }, line -> { }, 3);
        Map<DocumentHash, String> platform = new HashMap<>();
        for (int i = 0; i < DOCUMENTS.size(); i++) {
            if (delivery.get(i) == Delivery.FETCHED) {
                String text = DOCUMENTS.get(i).toString();
                platform.put(DocumentHash.of(text), text);
            }
        }
        follower.documents().fetchMissingFrom(h -> Optional.ofNullable(platform.get(h)));
        Map<String, List<Integer>> last = new LinkedHashMap<>();
        long version = 0;
        for (Change c : changes) {
            String id = "sb-" + c.sandbox();
            if (c.remove()) {
                follower.remove(id);
                last.remove(id);
                continue;
            }
            List<DocumentHash> hashes = new ArrayList<>();
            c.documents().forEach(i -> hashes.add(deliver(follower, DOCUMENTS.get(i).toString(), delivery.get(i))));
            follower.submit(new SandboxSet(++version, id, "org-1", "project-1", FeedApplierTest.tokenSha256(id),
                    hashes, List.of(), List.of()), s -> { });
            last.put(id, c.documents());
        }
        follower.settle();
        for (Map.Entry<String, List<Integer>> e : last.entrySet()) {
            boolean unavailable = e.getValue().stream().anyMatch(i -> delivery.get(i) == Delivery.NEVER);
            DecisionProgram alone = FeedApplierTest.compiledAlone(e.getValue().stream().map(DOCUMENTS::get).toList())
                    .program();
            DecisionProgram actual = registry.identify("Bearer " + FeedApplierTest.token(e.getKey())).orElseThrow()
                    .enforcement().get().program();
            for (String host : HOSTS) {
                EgressRequest r = EgressRequest.connection("https", host, 443, host, null);
                Decision got = actual.decideConnection(r);
                if (unavailable) {
                    assertThat(got.reason()).as("%s -> %s", e, host).isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
                } else {
                    Decision expected = alone.decideConnection(r);
                    assertThat(got.allowed()).as("%s -> %s", e, host).isEqualTo(expected.allowed());
                    assertThat(got.reason()).as("%s -> %s", e, host).isEqualTo(expected.reason());
                }
            }
        }
        assertThat(follower.size()).isEqualTo(last.size());
        for (int s = 0; s <= 5; s++) {
            boolean present = registry.identify("Bearer " + FeedApplierTest.token("sb-" + s)).isPresent();
            assertThat(present).as("sb-%s served", s).isEqualTo(last.containsKey("sb-" + s));
        }
    }

    /** What the feed does for one document of a set before sending the set; the set names it by hash. */
    private static DocumentHash deliver(FeedApplier follower, String text, Delivery how) {
        DocumentHash hash = DocumentHash.of(text);
        switch (how) {
            case SENT_BY_HASH -> follower.documents().offer(hash, text);
            case SENT_WHOLE -> follower.documents().offer(text);
            case FETCHED, NEVER -> { } // the follower fetches it when it reads the set (NEVER: the fetch fails)
        }
        return hash;
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
