package dev.stockade.api.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.SetPart;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shared lists: a sandbox's set names its attached policies and its organization's ceiling by name, so a policy's
 * rewrite is one list changed, with one version, written and sent once (wire 3), however many sandboxes name it; a
 * replica on wire 2 or 1 is sent every set naming it, resolved.
 */
@MicronautTest(transactional = false)
@Timeout(180)
class SharedListsFeedTest extends PlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    EnforcementStore store;
    @Inject
    Sql sql;

    @Test
    void aPolicyRewriteIsOneListChangedAndEveryWireCarriesIt() throws Exception {
        String owner = ownerToken();
        UUID org = UUID.fromString(createOrg(owner, "lists"));
        String project = createProject(owner, org.toString(), "p");
        String policy = http.post("/v1/projects/" + project + "/policies", owner, allow("shared", "a.example.com"))
                .text("id");
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            var created = http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", "s" + i,
                    "cpu", "250m", "memory", "128Mi", "policies", List.of(policy)));
            assertThat(created.status()).as(created.raw()).isEqualTo(201);
            ids.add(UUID.fromString(created.text("id")));
        }
        for (UUID id : ids) {
            http.awaitState("/v1/projects/" + project + "/sandboxes/" + id, owner, "running");
        }
        String list = "policy:" + policy;
        String ceiling = "ceiling:" + org;
        assertThat(liveSets(org)).hasSize(3).allSatisfy(c -> {
            assertThat(c.set().grants()).containsExactly(new SetPart.Shared(list));
            assertThat(c.set().ceiling()).containsExactly(new SetPart.Shared(ceiling));
        });
        assertThat(store.sharedLists(List.of(ceiling)).get(ceiling).documents()).as("no org policy yet").isEmpty();
        long before = latest();

        assertThat(http.patch("/v1/projects/" + project + "/policies/" + policy, owner, allow("shared", "b.example.com"))
                .status())
                .isEqualTo(200);
        Await.until("the list re-published", () -> latest() > before);
        List<EnforcementStore.ListedChange> changes = changesOf(org, before);
        assertThat(changes).as("one change: the list; no set is written again").singleElement()
                .satisfies(c -> assertThat(c.shared().name()).isEqualTo(list));
        DocumentHash now = changes.get(0).shared().documents().get(0);
        assertThat(store.document(now).orElseThrow()).contains("b.example.com").doesNotContain("a.example.com");

        List<SseEvent> three = feed(before, 3);
        assertThat(named(three, "set")).as("wire 3 sends no set for a list's change").isEmpty();
        assertThat(named(three, "shared")).singleElement().satisfies(e -> {
            assertThat(e.id()).isEqualTo(Long.toString(changes.get(0).version()));
            assertThat(tree(e.data()).path("name").asText()).isEqualTo(list);
            assertThat(tree(e.data()).path("documents").get(0).asText()).isEqualTo(now.hex());
        });
        assertThat(named(three, "document")).extracting(e -> tree(e.data()).path("sha256").asText()).contains(now.hex());

        List<SseEvent> two = feed(before, 2);
        assertThat(named(two, "shared")).isEmpty();
        assertThat(named(two, "set")).extracting(e -> UUID.fromString(tree(e.data()).path("sandboxId").asText()))
                .as("wire 2: every set naming the list, resolved").containsExactlyInAnyOrderElementsOf(ids);
        assertThat(named(two, "set")).allSatisfy(e -> assertThat(tree(e.data()).path("grants").get(0).asText())
                .isEqualTo(now.hex()));
        List<SseEvent> one = feed(before, 1);
        assertThat(named(one, "sandbox")).hasSize(3).allSatisfy(e -> assertThat(tree(e.data()).path("grants")
                .get(0).path("allowedDomains").toString()).contains("b.example.com"));

        // an org policy is the ceiling: the org's list changes, and still no set
        long beforeOrg = latest();
        assertThat(http.post("/v1/orgs/" + org + "/policies", owner, allow("ceiling", "*.example.com")).status())
                .isEqualTo(201);
        Await.until("the ceiling re-published", () -> latest() > beforeOrg);
        assertThat(changesOf(org, beforeOrg)).singleElement().satisfies(c -> {
            assertThat(c.shared().name()).isEqualTo(ceiling);
            assertThat(c.shared().documents()).hasSize(1);
        });

        // a policy deleted while attached grants nothing from then on (its list is empty)
        long beforeDelete = latest();
        assertThat(http.delete("/v1/projects/" + project + "/policies/" + policy, owner).status()).isEqualTo(204);
        Await.until("the deletion re-published", () -> latest() > beforeDelete);
        assertThat(store.sharedLists(List.of(list)).get(list).documents()).isEmpty();
        assertThat(changesOf(org, beforeDelete)).extracting(c -> c.shared() == null ? "set" : c.shared().name())
                .containsExactly(list);
    }

    @Test
    void setsWrittenBeforeSharedListsAreRepublishedWholeOnTheNextPolicyWrite() {
        String owner = ownerToken();
        UUID org = UUID.fromString(createOrg(owner, "upgraded"));
        String project = createProject(owner, org.toString(), "p");
        String policy = http.post("/v1/projects/" + project + "/policies", owner, allow("shared", "a.example.com"))
                .text("id");
        var created = http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", "old", "cpu", "250m",
                "memory", "128Mi", "policies", List.of(policy)));
        UUID id = UUID.fromString(created.text("id"));
        http.awaitState("/v1/projects/" + project + "/sandboxes/" + id, owner, "running");
        // the set as a platform before shared lists wrote it: every document by hash, no list named
        DocumentHash old = store.sharedLists(List.of("policy:" + policy)).get("policy:" + policy).documents().get(0);
        sql.update("UPDATE sandbox_enforcement SET bundle = jsonb_build_object('grants', jsonb_build_array(?::text),"
                + " 'ceiling', '[]'::jsonb, 'credentials', '[]'::jsonb) WHERE sandbox_id = ?", List.of(old.hex(), id));
        assertThat(liveSets(org)).singleElement().satisfies(c -> assertThat(c.set().grants())
                .containsExactly(new SetPart.Document(old)));
        long before = latest();

        assertThat(http.patch("/v1/projects/" + project + "/policies/" + policy, owner, allow("shared", "b.example.com"))
                .status()).isEqualTo(200);
        Await.until("the write re-published", () -> changesOf(org, before).stream().anyMatch(c -> id.equals(
                c.sandboxId())));
        assertThat(liveSets(org)).as("the set is written again, naming the lists").singleElement()
                .satisfies(c -> assertThat(c.set().grants()).containsExactly(new SetPart.Shared("policy:" + policy)));
        assertThat(store.sharedLists(List.of("policy:" + policy)).get("policy:" + policy).documents())
                .doesNotContain(old).hasSize(1);
    }

    private static Map<String, Object> allow(String name, String host) {
        return Map.of("name", name, "networkDefaultVerdict", "deny", "allowedDomains",
                List.of(Map.of("pattern", host, "verdict", "allow")));
    }

    private List<EnforcementStore.ListedChange> liveSets(UUID org) {
        Map<UUID, EnforcementStore.ListedChange> last = new java.util.LinkedHashMap<>();
        for (EnforcementStore.ListedChange c : store.changesAfter(0, 1_000_000)) {
            if (org.equals(c.orgId()) && c.sandboxId() != null) {
                last.put(c.sandboxId(), c);
            }
        }
        return last.values().stream().filter(c -> !c.deleted()).toList();
    }

    private List<EnforcementStore.ListedChange> changesOf(UUID org, long after) {
        return store.changesAfter(after, 1_000_000).stream().filter(c -> org.equals(c.orgId())).toList();
    }

    private long latest() {
        List<EnforcementStore.ListedChange> all = store.changesAfter(0, 1_000_000);
        return all.isEmpty() ? 0 : all.get(all.size() - 1).version();
    }

    private JsonNode tree(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<SseEvent> named(List<SseEvent> events, String name) {
        return events.stream().filter(e -> name.equals(e.name())).toList();
    }

    /** The feed's events after {@code version} until {@code ready}, on {@code wire}, read with a new proxy token. */
    private List<SseEvent> feed(long version, int wire) throws Exception {
        String proxy = http.post("/v1/proxy-tokens", ownerToken(), Map.of("name", "lists-" + wire + "-" + version))
                .text("token");
        return FeedEvents.untilReady(http.base(), proxy, "after=" + version + "&wire=" + wire);
    }
}
