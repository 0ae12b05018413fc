package dev.stockade.api.enforcement;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.SetPart;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Sets list their documents by content hash: a document shared by many sandboxes is stored once, a change writes (and
 * so sends) only the sets it reaches, and readers outside the feed still get each set's documents whole.
 */
@MicronautTest(transactional = false)
class EnforcementDocumentsTest extends PlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    EnforcementStore store;
    @Inject
    Sql sql;
    @Inject
    TransactionOperations<Connection> tx;

    @Test
    void aDocumentSharedByManySandboxesIsStoredOnceAndListedByHash() {
        Scope scope = scope("shared");
        JsonNode shared = policy("shared", "api.example.com");
        List<UUID> ids = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        long before = latest();
        publish(ids.stream().map(id -> set(scope, id, List.of(shared, policy("own-" + id, id + ".example.com")),
                List.of())).toList());

        DocumentHash hash = DocumentHash.of(shared.toString());
        assertThat(sql.query("SELECT count(*) FROM enforcement_documents WHERE sha256 = ?", List.of(hash.hex()),
                rs -> rs.getLong(1))).containsExactly(1L);
        List<EnforcementStore.ListedChange> changes = store.changesAfter(before, 100);
        assertThat(changes).extracting(EnforcementStore.ListedChange::sandboxId).containsExactlyElementsOf(ids);
        assertThat(changes).allSatisfy(c -> assertThat(c.set().grants()).hasSize(2).first().isEqualTo(new SetPart.Document(hash)));
        assertThat(store.documents(List.of(hash))).containsExactly(Map.entry(hash, shared.toString()));
        assertThat(store.document(DocumentHash.of("{}"))).isEmpty();
    }

    @Test
    void aChangeWritesOnlyTheSetsItReaches() {
        Scope scope = scope("reach");
        JsonNode p1 = policy("p1", "a.example.com");
        JsonNode p2 = policy("p2", "b.example.com");
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        UUID c = UUID.randomUUID();
        UUID withCredential = UUID.randomUUID();
        List<UUID> credential = List.of(UUID.randomUUID());
        publish(List.of(set(scope, a, List.of(p1), List.of()), set(scope, b, List.of(p1), List.of()),
                set(scope, c, List.of(p2), List.of()), set(scope, withCredential, List.of(p2), credential)));
        long before = latest();

        // the platform re-publishes every sandbox of the project; only a and b list p1, which changed
        JsonNode p1Changed = policy("p1", "a2.example.com");
        publish(List.of(set(scope, a, List.of(p1Changed), List.of()), set(scope, b, List.of(p1Changed), List.of()),
                set(scope, c, List.of(p2), List.of()), set(scope, withCredential, List.of(p2), credential)));

        List<EnforcementStore.ListedChange> changes = store.changesAfter(before, 100);
        assertThat(changes).extracting(EnforcementStore.ListedChange::sandboxId)
                .as("a set with credentials is always re-sent: their material is read when it is sent")
                .containsExactlyInAnyOrder(a, b, withCredential);
        assertThat(changes).filteredOn(ch -> ch.sandboxId().equals(a)).singleElement()
                .satisfies(ch -> assertThat(ch.set().grants()).containsExactly(new SetPart.Document(DocumentHash.of(p1Changed.toString()))));
    }

    @Test
    void readersOutsideTheFeedGetEachSetsDocumentsWhole() {
        Scope scope = scope("whole");
        JsonNode grant = policy("g", "a.example.com");
        JsonNode ceiling = policy("ceiling", "*.example.com");
        UUID id = UUID.randomUUID();
        publish(List.of(new SandboxEnforcement(id, scope.org(), scope.project(), new byte[32], 3, List.of(grant),
                List.of(ceiling), List.of())));

        Map<UUID, SandboxEnforcement> current = store.current(scope.org()).stream()
                .collect(Collectors.toMap(EnforcementStore.Change::sandboxId, EnforcementStore.Change::enforcement));
        assertThat(current.get(id).grantDocuments()).containsExactly(grant);
        assertThat(current.get(id).ceilingDocuments()).containsExactly(ceiling);
        assertThat(current.get(id).revision()).isEqualTo(3);
    }

    @Test
    void oneBatchKeepsItsOrderTheLastSetOfASandboxListedTwiceAndEachTokenHash() {
        Scope scope = scope("batch");
        UUID first = UUID.randomUUID();
        UUID twice = UUID.randomUUID();
        UUID tokenless = UUID.randomUUID();
        byte[] token = new byte[32];
        for (int i = 0; i < token.length; i++) {
            token[i] = (byte) (i * 7 - 100); // high bit set in some bytes: the hash must round-trip as bytes
        }
        JsonNode early = policy("early", "early.example.com");
        JsonNode late = policy("late", "late.example.com");
        long before = latest();
        publish(List.of(new SandboxEnforcement(first, scope.org(), scope.project(), token, 1, List.of(early),
                        List.of(), List.of()),
                set(scope, twice, List.of(early), List.of()),
                new SandboxEnforcement(tokenless, scope.org(), scope.project(), null, 1, List.of(early), List.of(),
                        List.of()),
                set(scope, twice, List.of(late), List.of())));

        List<EnforcementStore.ListedChange> changes = store.changesAfter(before, 100);
        assertThat(changes).extracting(EnforcementStore.ListedChange::sandboxId)
                .as("in the batch's order, a sandbox listed twice once, where its last set was")
                .containsExactly(first, tokenless, twice);
        assertThat(changes.get(0).set().tokenHash()).isEqualTo(token);
        assertThat(changes.get(1).set().tokenHash()).isNull();
        assertThat(changes.get(2).set().grants()).containsExactly(new SetPart.Document(DocumentHash.of(late.toString())));
        assertThat(changes).extracting(EnforcementStore.ListedChange::version).isSorted();
    }

    private record Scope(UUID org, UUID project) {
    }

    private Scope scope(String name) {
        String owner = ownerToken();
        String org = createOrg(owner, name);
        return new Scope(UUID.fromString(org), UUID.fromString(createProject(owner, org, "p")));
    }

    private static SandboxEnforcement set(Scope scope, UUID id, List<JsonNode> grants, List<UUID> credentials) {
        return new SandboxEnforcement(id, scope.org(), scope.project(), new byte[32], 1, grants, List.of(),
                credentials);
    }

    private void publish(List<SandboxEnforcement> sets) {
        tx.executeWrite(status -> {
            store.publishAll(sets);
            return null;
        });
    }

    private long latest() {
        return sql.first("SELECT coalesce(max(version), 0) FROM sandbox_enforcement", List.of(), rs -> rs.getLong(1))
                .orElse(0L);
    }

    private static JsonNode policy(String name, String host) {
        try {
            return JSON.readTree("{\"name\":\"" + name + "\",\"networkDefaultVerdict\":\"deny\",\"allowedDomains\":"
                    + "[{\"pattern\":\"" + host + "\",\"verdict\":\"allow\"}]}");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
