package dev.stockade.api.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.credentials.CredentialService;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.enforcement.SandboxEnforcement;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.TokenFormat;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.policy.compiler.Resolution;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

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
        java.util.Map<UUID, List<JsonNode>> ceilings = new java.util.HashMap<>();
        java.util.Map<UUID, List<JsonNode>> documents = new java.util.HashMap<>();
        java.util.Map<UUID, List<UUID>> owned = credentials.ownedBy(sandboxes.stream().map(Sandbox::id).toList());
        List<SandboxEnforcement> out = new ArrayList<>();
        for (Sandbox s : sandboxes) {
            List<JsonNode> grants = new ArrayList<>();
            for (UUID policy : s.config().policies()) {
                grants.addAll(documents.computeIfAbsent(policy, id -> effective.policies(s.orgId(), List.of(id))));
            }
            if (s.config().embedded() != null) {
                grants.add(s.config().embedded());
            }
            List<UUID> creds = new ArrayList<>(s.config().credentials());
            creds.addAll(owned.getOrDefault(s.id(), List.of()));
            byte[] tokenHash = TokenFormat.hash(box.open(s.tokenSealed(), tokenContext(s.id())));
            out.add(new SandboxEnforcement(s.id(), s.orgId(), s.projectId(), tokenHash, s.activeRevision(), grants,
                    ceilings.computeIfAbsent(s.orgId(), effective::ceiling), creds));
        }
        enforcement.publishAll(out);
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
