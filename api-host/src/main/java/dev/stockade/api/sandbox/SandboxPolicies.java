package dev.stockade.api.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.credentials.CredentialService;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.enforcement.OwnDocument;
import dev.stockade.api.enforcement.SandboxEnforcement;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.TokenFormat;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.proxy.feed.SetPart;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * What reaches a sandbox: its attached policies in order and its embedded policy last, under the org ceiling
 * (every org policy), and its credentials (attached project credentials and those it owns). Publishes the result to
 * its egress proxy through {@link EnforcementStore} on every change.
 */
@Singleton
public class SandboxPolicies {
    private final Effective effective;
    private final EnforcementStore enforcement;
    private final CredentialService credentials;
    private final SecretBox box;
    private final Sql jdbc;

    public SandboxPolicies(Effective effective, EnforcementStore enforcement, CredentialService credentials,
                           SecretBox box, Sql jdbc) {
        this.effective = effective;
        this.enforcement = enforcement;
        this.credentials = credentials;
        this.box = box;
        this.jdbc = jdbc;
    }

    /** The grant documents of a configuration: attached policies in order, the embedded policy last. */
    public List<JsonNode> grants(UUID orgId, SandboxConfig config) {
        List<JsonNode> grants = new ArrayList<>(effective.policies(orgId, config.policies()));
        if (config.embedded() != null) {
            grants.add(config.embedded());
        }
        return grants;
    }

    public Resolution resolve(Sandbox s) {
        return effective.resolve(s.orgId(),
                new Effective.Documents(effective.ceiling(s.orgId()), grants(s.orgId(), s.config())));
    }

    /** Publishes what the sandbox's proxy enforces now (on the caller's transaction). */
    public void publish(Sandbox s) {
        publishAll(List.of(s));
    }

    /**
     * Publishes what each sandbox's proxy enforces now, in one batch (on the caller's transaction): the ceiling and
     * each attached policy are read once per batch, the sandboxes' own credentials in one query, the rows written in
     * one JDBC batch with one {@code enforcement} event per organization. A policy change that reaches a thousand
     * sandboxes is one batch, not a thousand round trips.
     */
    public void publishAll(List<Sandbox> sandboxes) {
        enforcement.lock(); // before the policies are read (see EnforcementStore.lock)
        Batch batch = new Batch(sandboxes.stream().map(Sandbox::id).toList());
        List<SandboxEnforcement> out = new ArrayList<>();
        for (Sandbox s : sandboxes) {
            out.add(batch.set(s.id(), s.orgId(), s.projectId(), s.tokenSealed(), null, s.activeRevision(),
                    s.config().policies(), s.config().credentials(), OwnDocument.of(s.config().embedded())));
        }
        enforcement.publishAll(out);
    }

    /**
     * Re-publishes {@code listed} (a governance change reached them) as {@link #publishAll} would, in one batch, but
     * names each sandbox's embedded policy by the hash its set remembers for the sandbox's revision, and its token by
     * the hash its set holds: a shared policy's write then reads, serialises and hashes no sandbox's own document and
     * opens no sealed token. A sandbox whose set remembers none (a row
     * written before sets remembered it, or an odd configuration) is read whole through {@code readWhole}, once.
     * Returns how long writing the sets took, in nanoseconds (the rest was building them), for the caller's log.
     */
    long republish(List<SandboxStore.Listed> listed, Function<Set<UUID>, List<Sandbox>> readWhole) {
        enforcement.lock(); // before the policies are read (see EnforcementStore.lock)
        Batch batch = new Batch(listed.stream().map(SandboxStore.Listed::id).toList());
        java.util.Map<UUID, EnforcementStore.StoredOwn> remembered = enforcement.ownDocuments(
                listed.stream().filter(l -> "object".equals(l.ownType())).map(SandboxStore.Listed::id).toList());
        List<SandboxEnforcement> out = new ArrayList<>();
        Set<UUID> whole = new HashSet<>();
        for (SandboxStore.Listed l : listed) {
            OwnDocument own = own(l, remembered.get(l.id()));
            if (own == null) {
                whole.add(l.id());
                continue;
            }
            out.add(batch.set(l.id(), l.orgId(), l.projectId(), l.tokenSealed(), l.tokenHash(), l.activeRevision(),
                    l.policies(), l.credentials(), own));
        }
        if (!whole.isEmpty()) {
            for (Sandbox s : readWhole.apply(whole)) {
                out.add(batch.set(s.id(), s.orgId(), s.projectId(), s.tokenSealed(), null, s.activeRevision(),
                        s.config().policies(), s.config().credentials(), OwnDocument.of(s.config().embedded())));
            }
        }
        long writing = System.nanoTime();
        enforcement.publishAll(out);
        return System.nanoTime() - writing;
    }

    /**
     * Publishes again the shared lists a policy's write reaches, alone: the policy's own list and, for an org policy
     * ({@code projectId} null), the organization's ceiling, each only where some set already names it. Every set
     * naming them follows on every proxy without being written again. Returns the names whose documents changed, or
     * null when the sets the write reaches include some written before shared lists: only a full re-publication brings
     * those up to date.
     */
    List<String> republishShared(UUID orgId, UUID projectId, UUID policyId) {
        enforcement.lock(); // before the policy is read (see EnforcementStore.lock)
        if (enforcement.hasSetsWithoutSharedLists(orgId, projectId)) {
            return null;
        }
        boolean orgPolicy = projectId == null;
        List<String> names = new ArrayList<>();
        names.add(SetPart.policy(policyId).name());
        if (orgPolicy) {
            names.add(SetPart.ceiling(orgId).name());
        }
        java.util.Set<String> named = enforcement.sharedLists(names).keySet();
        List<EnforcementStore.SharedDocuments> lists = new ArrayList<>();
        if (named.contains(names.get(0))) {
            lists.add(new EnforcementStore.SharedDocuments(names.get(0), orgId, effective.policy(orgId, policyId)));
        }
        if (orgPolicy && named.contains(names.get(1))) {
            lists.add(new EnforcementStore.SharedDocuments(names.get(1), orgId, effective.ceiling(orgId)));
        }
        return enforcement.publishShared(lists);
    }

    /** The own document by what the set remembers, or null when only a full read can tell. */
    private static OwnDocument own(SandboxStore.Listed l, EnforcementStore.StoredOwn remembered) {
        if ("null".equals(l.ownType())) {
            return new OwnDocument.None();
        }
        boolean known = "object".equals(l.ownType()) && remembered != null && remembered.hash() != null
                && remembered.revision() == l.activeRevision();
        return known ? new OwnDocument.Stored(remembered.hash()) : null;
    }

    /**
     * What the sets of one batch share: each attached policy's document read once, each organization's ceiling
     * once, the sandboxes' own credentials in one query.
     */
    private final class Batch {
        private final java.util.Map<UUID, List<JsonNode>> ceilings = new java.util.HashMap<>();
        private final java.util.Map<UUID, List<JsonNode>> documents = new java.util.HashMap<>();
        private final java.util.Map<UUID, List<UUID>> owned;

        private Batch(List<UUID> sandboxIds) {
            owned = credentials.ownedBy(sandboxIds);
        }

        /** {@code tokenHash}: the hash the live set holds for the token (null: open the sealed token for it). */
        private SandboxEnforcement set(UUID id, UUID orgId, UUID projectId, String tokenSealed, byte[] tokenHash,
                                       int revision, List<UUID> policyIds, List<UUID> credentialIds,
                                       OwnDocument own) {
            // an attached policy and the ceiling are shared lists: their rewrite is one list changed, not every set
            List<SandboxEnforcement.Part> grants = new ArrayList<>();
            for (UUID policy : policyIds) {
                grants.add(SandboxEnforcement.Part.shared(SetPart.policy(policy).name(),
                        documents.computeIfAbsent(policy, p -> effective.policy(orgId, p))));
            }
            List<UUID> creds = new ArrayList<>(credentialIds);
            creds.addAll(owned.getOrDefault(id, List.of()));
            // opening a sealed token is two AES-GCM decryptions with fresh keys: most of a re-publication's work
            byte[] hash = tokenHash != null ? tokenHash : TokenFormat.hash(box.open(tokenSealed, tokenContext(id)));
            return new SandboxEnforcement(id, orgId, projectId, hash, revision, grants,
                    List.of(SandboxEnforcement.Part.shared(SetPart.ceiling(orgId).name(),
                            ceilings.computeIfAbsent(orgId, effective::ceiling))), creds, own);
        }
    }

    /** Attached project credentials, then those the sandbox owns. */
    public List<UUID> credentialIds(Sandbox s) {
        List<UUID> ids = new ArrayList<>(s.config().credentials());
        credentials.visibleTo(s.projectId(), s.id()).stream().filter(c -> s.id().equals(c.sandboxId()))
                .forEach(c -> ids.add(c.id()));
        return ids;
    }

    /** Refuses attached policies and credentials the sandbox's project cannot use (400, nothing changes). */
    public void checkReferences(UUID orgId, UUID projectId, SandboxConfig config) {
        List<FieldError> errors = new ArrayList<>();
        for (int i = 0; i < config.policies().size(); i++) {
            if (!exists("SELECT 1 FROM policies WHERE id = ? AND org_id = ? AND (project_id IS NULL OR project_id = ?)",
                    config.policies().get(i), orgId, projectId)) {
                errors.add(new FieldError("/policies/" + i, "unknown-policy", "no policy `" + config.policies().get(i)
                        + "` in the project or its organization"));
            }
        }
        for (int i = 0; i < config.credentials().size(); i++) {
            if (!exists("SELECT 1 FROM credentials WHERE id = ? AND org_id = ? AND project_id = ? AND sandbox_id IS NULL",
                    config.credentials().get(i), orgId, projectId)) {
                errors.add(new FieldError("/credentials/" + i, "unknown-credential", "no credential `"
                        + config.credentials().get(i) + "` in the project"));
            }
        }
        if (!errors.isEmpty()) {
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, errors.size() == 1 ? errors.get(0).detail()
                    : errors.size() + " problems in the body", errors);
        }
    }

    static String tokenContext(UUID sandboxId) {
        return "sandbox-token:" + sandboxId;
    }

    private boolean exists(String sql, UUID id, UUID orgId, UUID projectId) {
        return jdbc.exists(sql, Arrays.asList(id, orgId, projectId));
    }
}
