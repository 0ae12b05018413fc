package dev.stockade.proxy.feed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.proxy.SandboxRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Sets name their documents by content hash: a document the follower lacks is fetched by its hash, once; one that
 * cannot be had, or whose text does not match its hash, leaves the sandboxes listing it denying everything, and they
 * recover when the document arrives and their set is sent again.
 */
class DocumentsByHashTest {
    private final SandboxRegistry registry = SandboxRegistry.dynamic();
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final FeedApplier applier = new FeedApplier(registry, names -> { }, warnings::add, 2);

    @Test
    void aSetListingADocumentThatCannotBeHadDeniesEverythingUntilTheDocumentArrives() {
        String text = FeedApplierTest.allow("a.example.com").toString();
        DocumentHash hash = DocumentHash.of(text);

        applier.apply(set(1, "sb-1", hash));

        assertThat(decide("sb-1", "a.example.com").reason()).isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains(hash.hex()).contains("could not be fetched"));
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("sb-1").contains("denies everything"));

        // the document arrives; the next set listing it compiles again instead of sharing the failed program
        assertThat(applier.documents().offer(hash, text)).isTrue();
        applier.apply(set(2, "sb-2", hash));
        applier.apply(set(3, "sb-1", hash));
        assertThat(decide("sb-2", "a.example.com").allowed()).isTrue();
        assertThat(decide("sb-1", "a.example.com").allowed()).isTrue();
        assertThat(applier.programs()).isEqualTo(1);
    }

    @Test
    void aMissingDocumentIsFetchedByItsHashOnceForEverySetListingIt() {
        String text = FeedApplierTest.allow("b.example.com").toString();
        DocumentHash hash = DocumentHash.of(text);
        AtomicInteger asked = new AtomicInteger();
        Map<DocumentHash, String> platform = new ConcurrentHashMap<>(Map.of(hash, text));
        applier.documents().fetchMissingFrom(h -> {
            asked.incrementAndGet();
            return Optional.ofNullable(platform.get(h));
        });

        for (int i = 1; i <= 5; i++) {
            applier.submit(set(i, "sb-" + i, hash), s -> { });
        }
        applier.settleCompiled();

        assertThat(asked).hasValue(1);
        assertThat(applier.documents().fetched()).isEqualTo(1);
        assertThat(applier.compilations()).isEqualTo(1);
        for (int i = 1; i <= 5; i++) {
            assertThat(decide("sb-" + i, "b.example.com").allowed()).isTrue();
            assertThat(decide("sb-" + i, "a.example.com").allowed()).isFalse();
        }
    }

    @Test
    void aDocumentWhoseTextDoesNotMatchItsHashIsRefusedSentOrFetched() {
        String text = FeedApplierTest.allow("a.example.com").toString();
        String other = FeedApplierTest.allow("c.example.com").toString();
        DocumentHash hash = DocumentHash.of(text);

        assertThat(applier.documents().offer(hash, other)).isFalse();
        applier.documents().fetchMissingFrom(h -> Optional.of(other));
        applier.apply(set(1, "sb-1", hash));

        assertThat(decide("sb-1", "a.example.com").reason()).isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
        assertThat(decide("sb-1", "c.example.com").reason()).isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("does not match its hash"));
        assertThat(applier.documents().fetched()).isZero();
    }

    @Test
    void aDocumentSentWholeIsNamedByTheHashOfItsText() {
        JsonNode doc = FeedApplierTest.allow("d.example.com");
        DocumentHash hash = applier.documents().offer(doc.toString());

        assertThat(hash).isEqualTo(DocumentHash.of(doc.toString()));
        assertThat(applier.documents().has(hash)).isTrue();
        applier.apply(set(1, "sb-1", hash));
        assertThat(decide("sb-1", "d.example.com").allowed()).isTrue();
    }

    /**
     * A rewrite of a shared document prepares that document alone: each sandbox's own document keeps the part it was
     * prepared as (the same object), and every list naming the new shared document is compiled from the parts.
     */
    @Test
    void aRewriteOfASharedDocumentPreparesThatDocumentAloneAndReusesEachSandboxsPart() {
        DocumentHash shared = applier.documents().offer(FeedApplierTest.allow("shared.example.com").toString());
        DocumentHash own1 = applier.documents().offer(FeedApplierTest.allow("own-1.example.com").toString());
        DocumentHash own2 = applier.documents().offer(FeedApplierTest.allow("own-2.example.com").toString());
        applier.apply(set(1, "sb-1", shared, own1));
        applier.apply(set(2, "sb-2", shared, own2));
        applier.settleCompiled(); // both lists compiled before they are replaced
        var part1 = applier.documents().part(own1).orElseThrow();
        var part2 = applier.documents().part(own2).orElseThrow();

        DocumentHash rewritten = applier.documents().offer(FeedApplierTest.allow("shared-2.example.com").toString());
        applier.apply(set(3, "sb-1", rewritten, own1));
        applier.apply(set(4, "sb-2", rewritten, own2));
        applier.settleCompiled();

        assertThat(applier.documents().part(own1)).containsSame(part1);
        assertThat(applier.documents().part(own2)).containsSame(part2);
        assertThat(applier.compilations()).as("two lists, then two new lists").isEqualTo(4);
        assertThat(decide("sb-1", "shared-2.example.com").allowed()).isTrue();
        assertThat(decide("sb-1", "shared.example.com").allowed()).isFalse();
        assertThat(decide("sb-2", "own-2.example.com").allowed()).isTrue();
        assertThat(decide("sb-2", "own-1.example.com").allowed()).isFalse();
    }

    private static SandboxSet set(long version, String sandboxId, DocumentHash... grants) {
        return new SandboxSet(version, sandboxId, "org-1", "project-1", FeedApplierTest.tokenSha256(sandboxId),
                List.of(grants), List.of(), List.of());
    }

    private Decision decide(String sandboxId, String host) {
        return registry.identify("Bearer " + FeedApplierTest.token(sandboxId)).orElseThrow().enforcement().get()
                .program().decideConnection(EgressRequest.connection("https", host, 443, host, null));
    }
}
