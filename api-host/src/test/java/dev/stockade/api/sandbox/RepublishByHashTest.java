package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.SetPart;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A write of a shared policy re-publishes each sandbox it reaches by hashes: the sandbox's own (embedded) document is
 * named by the hash its set remembers for the revision, never read or hashed again, and the sets written are exactly
 * those a full publication gives (publishing them whole afterwards changes no row). A set that remembers nothing (a
 * row from before the column) is read whole once and remembers from then on. The token is named by the hash the set
 * holds (a sandbox's token is sealed once and never replaced), so no sealed token is opened.
 */
@MicronautTest(transactional = false)
class RepublishByHashTest extends PlatformTest {
    @Inject
    SandboxService sandboxes;
    @Inject
    SandboxPolicies policies;
    @Inject
    SandboxStore store;
    @Inject
    EnforcementStore enforcement;
    @Inject
    Sql sql;
    @Inject
    TransactionOperations<Connection> tx;

    @Test
    void aSharedPolicyWriteRepublishesByHashesExactlyAsAFullPublication() {
        Project p = project("by-hash");
        Map<String, Object> own = Map.of("name", "own", "allowedDomains", List.of(Map.of("pattern",
                "own.example.com", "verdict", "allow")));
        UUID withOwn = sandbox(p, Map.of("name", "with-own", "cpu", "250m", "memory", "128Mi",
                "policies", List.of(p.policy()), "policy", own));
        UUID plain = sandbox(p, Map.of("name", "plain", "cpu", "250m", "memory", "128Mi",
                "policies", List.of(p.policy())));
        Await.until("both sets published", () -> grants(withOwn).size() == 2 && grants(plain).size() == 1);
        DocumentHash ownHash = grants(withOwn).get(1);
        assertThat(remembered(withOwn)).containsExactly(ownHash.hex());
        DocumentHash sharedBefore = grants(plain).get(0);

        rewrite(p, "b.example.com");
        Await.until("the write re-published", () -> !grants(plain).get(0).equals(sharedBefore)
                && !grants(withOwn).get(0).equals(sharedBefore));
        assertThat(grants(withOwn)).as("the shared document changed, the own one is named by its remembered hash")
                .containsExactly(grants(plain).get(0), ownHash);
        long version = latest();
        fullPublication(p.org());
        assertThat(latest()).as("a full publication writes nothing new: the sets by hashes were the same")
                .isEqualTo(version);

        // the by-hash path does not read the own document: alter the revision's stored copy behind the platform's
        // back (a revision never changes in use) and the set keeps naming the remembered hash
        sql.update("UPDATE sandbox_revisions SET config = jsonb_set(config, '{policy,name}', '\"altered\"')"
                + " WHERE sandbox_id = ?", List.of(withOwn));
        List<DocumentHash> before = grants(withOwn);
        assertThat(sandboxes.reenforce(event(), p.org(), "policy", p.id(), null)).isTrue();
        assertThat(grants(withOwn)).isEqualTo(before);
        assertThat(latest()).as("nothing changed: no set is written again").isEqualTo(version);

        // a row from before sets remembered their own document is read whole once, then remembers again
        sql.update("UPDATE sandbox_enforcement SET own_known = false, own_sha256 = NULL WHERE sandbox_id = ?",
                List.of(withOwn));
        assertThat(sandboxes.reenforce(event(), p.org(), "policy", p.id(), null)).isTrue();
        DocumentHash reread = grants(withOwn).get(1);
        assertThat(reread).as("read whole: the altered copy").isNotEqualTo(ownHash);
        assertThat(grants(withOwn)).containsExactly(before.get(0), reread);
        assertThat(remembered(withOwn)).containsExactly(reread.hex());
    }

    @Test
    void aRepublicationNamesTheTokenByTheHashItsSetHoldsAndOpensNoSealedToken() {
        Project p = project("token-by-hash");
        UUID id = sandbox(p, Map.of("name", "s", "cpu", "250m", "memory", "128Mi",
                "policies", List.of(p.policy())));
        Await.until("the set published", () -> grants(id).size() == 1);
        // provisioning opens the token too: let it finish before the sealed token is spoiled below
        String path = "/v1/projects/" + p.id() + "/sandboxes/" + id;
        Await.until("the sandbox to run", Await.LONG, () -> http.get(path, p.owner()).text("state").equals("running"));
        String tokenHash = tokenHash(id);
        String sealed = sql.first("SELECT token_sealed FROM sandboxes WHERE id = ?", List.of(id), rs -> rs.getString(1))
                .orElseThrow();

        // a sealed token that no key opens: a re-publication that tried to open it would fail and write nothing
        List<DocumentHash> before = grants(id);
        sql.update("UPDATE sandboxes SET token_sealed = 'not-a-sealed-token' WHERE id = ?", List.of(id));
        rewrite(p, "b.example.com");
        Await.until("the write re-published", () -> !grants(id).equals(before));
        assertThat(tokenHash(id)).as("the same token, by the hash its set held").isEqualTo(tokenHash);

        // a set that holds no hash (none was published yet, say) has the token opened: the hash comes back the same
        sql.update("UPDATE sandboxes SET token_sealed = ? WHERE id = ?", List.of(sealed, id));
        sql.update("UPDATE sandbox_enforcement SET token_hash = NULL WHERE sandbox_id = ?", List.of(id));
        assertThat(sandboxes.reenforce(event(), p.org(), "policy", p.id(), null)).isTrue();
        assertThat(tokenHash(id)).isEqualTo(tokenHash);
    }

    /** An organization of its own with one project and the shared policy {@code a.example.com}. */
    private record Project(String owner, UUID org, String id, String policy) {
    }

    private Project project(String orgName) {
        String owner = ownerToken();
        UUID org = UUID.fromString(createOrg(owner, orgName));
        String project = createProject(owner, org.toString(), "p");
        String policy = http.post("/v1/projects/" + project + "/policies", owner, shared("a.example.com")).body()
                .path("id").asText();
        return new Project(owner, org, project, policy);
    }

    private String tokenHash(UUID sandbox) {
        return sql.first("SELECT coalesce(encode(token_hash, 'hex'), '') FROM sandbox_enforcement WHERE sandbox_id = ?",
                List.of(sandbox), rs -> rs.getString(1)).orElse("");
    }

    private UUID sandbox(Project p, Map<String, Object> body) {
        var created = http.post("/v1/projects/" + p.id() + "/sandboxes", p.owner(), body);
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        return UUID.fromString(created.body().path("id").asText());
    }

    /** Rewrites the project's shared policy to allow {@code host} instead. */
    private void rewrite(Project p, String host) {
        assertThat(http.patch("/v1/projects/" + p.id() + "/policies/" + p.policy(), p.owner(), shared(host)).status())
                .isEqualTo(200);
    }

    private static Map<String, Object> shared(String host) {
        return Map.of("name", "shared", "networkDefaultVerdict", "deny", "allowedDomains",
                List.of(Map.of("pattern", host, "verdict", "allow")));
    }

    /** The grant hashes the sandbox's live set lists now, its shared lists as they are now. */
    private List<DocumentHash> grants(UUID sandbox) {
        List<SetPart> parts = enforcement.changesAfter(0, 100_000).stream()
                .filter(c -> sandbox.equals(c.sandboxId()) && !c.deleted())
                .reduce((a, b) -> b).map(c -> c.set().grants()).orElse(List.of());
        List<DocumentHash> out = new java.util.ArrayList<>();
        for (SetPart part : parts) {
            if (part instanceof SetPart.Document d) {
                out.add(d.hash());
            } else if (part instanceof SetPart.Shared s) {
                out.addAll(enforcement.sharedLists(List.of(s.name())).get(s.name()).documents());
            }
        }
        return out;
    }

    private List<String> remembered(UUID sandbox) {
        return sql.query("SELECT own_sha256 FROM sandbox_enforcement WHERE sandbox_id = ? AND own_known",
                List.of(sandbox), rs -> rs.getString(1));
    }

    private void fullPublication(UUID org) {
        tx.executeWrite(status -> {
            policies.publishAll(store.ofOrg(org, null));
            return null;
        });
    }

    private long latest() {
        return sql.first("SELECT coalesce(max(version), 0) FROM sandbox_enforcement", List.of(), rs -> rs.getLong(1))
                .orElse(0L);
    }

    private static long event() {
        return 8_000_000_000L + System.nanoTime() % 1_000_000_000L;
    }
}
