package dev.stockade.api.egress;

import static dev.stockade.api.support.PlatformTest.problem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.enforcement.SandboxEnforcement;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.host.sse.SseEvent;
import dev.stockade.proxy.feed.DocumentHash;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The proxy feed by content hash (wire 2): a document shared by many sets is sent once, before the first set listing
 * it; a replica that predates wire 2 still gets each set with its documents whole; a replica fetches a document it
 * lacks by hash, with its proxy token only.
 */
@MicronautTest(transactional = false)
@Timeout(120)
class FeedByHashTest extends PlatformTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    EnforcementStore store;
    @Inject
    TransactionOperations<Connection> tx;

    @Test
    void aSharedDocumentIsSentOnceAndOlderReplicasGetSetsWhole() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "hashes");
        String project = createProject(owner, org, "p");
        JsonNode shared = JSON.readTree("{\"name\":\"shared\",\"allowedDomains\":[{\"pattern\":\"api.example.com\","
                + "\"verdict\":\"allow\"}]}");
        List<String> ids = new ArrayList<>();
        List<SandboxEnforcement> sets = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            UUID id = UUID.randomUUID();
            ids.add(id.toString());
            JsonNode own = JSON.readTree("{\"name\":\"own-" + i + "\",\"allowedDomains\":[{\"pattern\":\"s" + i
                    + ".example.com\",\"verdict\":\"allow\"}]}");
            sets.add(new SandboxEnforcement(id, UUID.fromString(org), UUID.fromString(project), new byte[32], 1,
                    List.of(shared, own), List.of(), List.of()));
        }
        tx.executeWrite(status -> {
            store.publishAll(sets);
            return null;
        });
        String proxy = http.post("/v1/proxy-tokens", owner, Map.of("name", "hashes")).text("token");
        DocumentHash hash = DocumentHash.of(shared.toString());

        List<SseEvent> byHash = untilReady(proxy, "wire=2");
        List<Integer> documentAt = indexes(byHash, e -> e.name().equals("document")
                && JSON.readTree(e.data()).path("sha256").asText().equals(hash.hex()));
        List<Integer> setsAt = indexes(byHash, e -> e.name().equals("set")
                && ids.contains(JSON.readTree(e.data()).path("sandboxId").asText()));
        assertThat(documentAt).as("the shared document, once").hasSize(1);
        assertThat(setsAt).hasSize(4).allSatisfy(i -> assertThat(i).isGreaterThan(documentAt.get(0)));
        JsonNode document = JSON.readTree(byHash.get(documentAt.get(0)).data());
        assertThat(DocumentHash.of(document.path("text").asText())).isEqualTo(hash);
        assertThat(JSON.readTree(byHash.get(setsAt.get(0)).data()).path("grants").get(0).asText())
                .isEqualTo(hash.hex());

        List<SseEvent> whole = untilReady(proxy, "wire=1");
        List<Integer> wholeSets = indexes(whole, e -> e.name().equals("sandbox")
                && ids.contains(JSON.readTree(e.data()).path("sandboxId").asText()));
        assertThat(wholeSets).hasSize(4);
        for (int i : wholeSets) {
            assertThat(JSON.readTree(whole.get(i).data()).path("grants").get(0)).isEqualTo(shared);
        }
        assertThat(whole).noneMatch(e -> e.name().equals("document") || e.name().equals("set"));
        assertThat(problem(http.get("/v1/egress/feed?wire=4", proxy), 400)).isEqualTo("validation_failed");
    }

    @Test
    void aReplicaFetchesADocumentByHashWithItsProxyTokenOnly() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "fetch");
        String project = createProject(owner, org, "p");
        JsonNode doc = JSON.readTree("{\"name\":\"fetched\",\"allowedDomains\":[{\"pattern\":\"f.example.com\","
                + "\"verdict\":\"allow\"}]}");
        tx.executeWrite(status -> {
            store.publishAll(List.of(new SandboxEnforcement(UUID.randomUUID(), UUID.fromString(org),
                    UUID.fromString(project), new byte[32], 1, List.of(doc), List.of(), List.of())));
            return null;
        });
        String proxy = http.post("/v1/proxy-tokens", owner, Map.of("name", "fetch")).text("token");
        DocumentHash hash = DocumentHash.of(doc.toString());

        Http.Response got = http.get("/v1/egress/documents/" + hash.hex(), proxy);
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.text("sha256")).isEqualTo(hash.hex());
        assertThat(hash.names(got.text("text"))).as("the exact text hashed").isTrue();
        assertThat(problem(http.get("/v1/egress/documents/" + DocumentHash.of("{}").hex(), proxy), 404))
                .isEqualTo("not_found");
        assertThat(problem(http.get("/v1/egress/documents/NOT-A-HASH", proxy), 400)).isEqualTo("validation_failed");
        assertThat(problem(http.get("/v1/egress/documents/" + hash.hex(), owner), 403)).isEqualTo("forbidden");
    }

    /** The feed's events from version 0 until {@code ready}, read with the proxy token. */
    private List<SseEvent> untilReady(String proxy, String wire) throws Exception {
        return FeedEvents.untilReady(http.base(), proxy, "after=0&" + wire);
    }

    @FunctionalInterface
    private interface Check {
        boolean test(SseEvent e) throws Exception;
    }

    private static List<Integer> indexes(List<SseEvent> events, Check check) throws Exception {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            if (check.test(events.get(i))) {
                out.add(i);
            }
        }
        return out;
    }
}
