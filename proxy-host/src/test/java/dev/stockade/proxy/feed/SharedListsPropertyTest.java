package dev.stockade.proxy.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Differential property: a follower that resolves shared lists as they change ({@link SharedLists}) ends every
 * sequence of sets, list changes and removals with each sandbox enforcing exactly what its last set names, resolved
 * with each list's last documents (a list never sent standing as {@link DocumentHash#UNAVAILABLE}), as if the platform
 * had sent every set again whole after the last change.
 */
class SharedListsPropertyTest {
    private static final long SEED = 30_2028L;
    private static final List<String> LISTS = List.of("policy:a", "policy:b", "ceiling:o");

    /**
     * One change: kind 0-4 a set for {@code sandbox} naming {@code parts} (index < 3: a list, otherwise a document),
     * 5-7 list {@code sandbox % 3} gets the documents {@code parts}, 8 the sandbox is removed.
     */
    record Change(int kind, int sandbox, List<Integer> parts) {
    }

    @Test
    void everySandboxEndsWithItsLastSetResolvedWithTheLastLists() {
        Gen<Change> change = integers().between(0, 8).zip(integers().between(0, 4),
                lists().of(integers().between(0, 7)).ofSizeBetween(0, 4), Change::new);
        QuickTheory.qt().withFixedSeed(SEED).withExamples(300)
                .forAll(lists().of(change).ofSizeBetween(1, 40))
                .checkAssert(this::agrees);
    }

    private void agrees(List<Change> changes) {
        SharedLists follower = new SharedLists();
        Map<String, SandboxSet> enforced = new HashMap<>();
        Map<String, SandboxParts> lastSet = new HashMap<>();
        Map<String, List<DocumentHash>> lastList = new HashMap<>();
        long version = 0;
        for (Change c : changes) {
            version++;
            String id = "sb-" + c.sandbox();
            if (c.kind() <= 4) {
                List<SetPart> grants = new ArrayList<>();
                for (int p : c.parts()) {
                    grants.add(p < LISTS.size() ? new SetPart.Shared(LISTS.get(p)) : new SetPart.Document(doc(p)));
                }
                SandboxParts set = new SandboxParts(version, id, "o", "p", "t", grants,
                        List.of(new SetPart.Shared("ceiling:o")), List.of());
                lastSet.put(id, set);
                enforced.put(id, follower.set(set));
            } else if (c.kind() <= 7) {
                String name = LISTS.get(c.sandbox() % LISTS.size());
                List<DocumentHash> docs = c.parts().stream().map(SharedListsPropertyTest::doc).toList();
                lastList.put(name, docs);
                for (SandboxSet s : follower.list(name, version, docs)) {
                    assertThat(lastSet.get(s.sandboxId()).shared()).as("only a set naming the list").contains(name);
                    enforced.put(s.sandboxId(), s);
                }
            } else {
                follower.remove(id);
                lastSet.remove(id);
                enforced.remove(id);
            }
        }
        assertThat(enforced.keySet()).isEqualTo(lastSet.keySet());
        for (SandboxParts set : lastSet.values()) {
            SandboxSet actual = enforced.get(set.sandboxId());
            assertThat(actual.grants()).as("grants of %s", set.sandboxId())
                    .isEqualTo(expand(set.grants(), lastList));
            assertThat(actual.ceiling()).as("ceiling of %s", set.sandboxId())
                    .isEqualTo(expand(set.ceiling(), lastList));
        }
    }

    /** The reference: each list replaced by its last documents, one never sent by the unavailable hash. */
    private static List<DocumentHash> expand(List<SetPart> parts, Map<String, List<DocumentHash>> lists) {
        List<DocumentHash> out = new ArrayList<>();
        for (SetPart p : parts) {
            if (p instanceof SetPart.Document d) {
                out.add(d.hash());
            } else {
                String name = ((SetPart.Shared) p).name();
                out.addAll(lists.containsKey(name) ? lists.get(name) : List.of(DocumentHash.UNAVAILABLE));
            }
        }
        return out;
    }

    private static DocumentHash doc(int n) {
        return DocumentHash.of("{\"name\":\"d" + n + "\"}");
    }
}
