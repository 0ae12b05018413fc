package dev.stockade.api.sandbox;

import dev.stockade.api.credentials.CredentialInput;
import dev.stockade.api.credentials.CredentialService;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.identity.SandboxTokenRow;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.tenancy.TokenService;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The sandbox feature's writes, each one transaction: the row, its revision, its token, its credentials, the audit
 * entry and what its proxy enforces commit together or not at all. Runtime work (provisioning) happens after commit
 * in {@link SandboxWorker}.
 */
@Singleton
public class SandboxWrites {
    private final SandboxStore store;
    private final SandboxPolicies policies;
    private final TokenService tokens;
    private final CredentialService credentials;
    private final EnforcementStore enforcement;
    private final SecretBox box;
    private final AuditLog audit;
    private final Clock clock;

    public SandboxWrites(SandboxStore store, SandboxPolicies policies, TokenService tokens,
                         CredentialService credentials, EnforcementStore enforcement, SecretBox box, AuditLog audit,
                         Clock clock) {
        this.store = store;
        this.policies = policies;
        this.tokens = tokens;
        this.credentials = credentials;
        this.enforcement = enforcement;
        this.box = box;
        this.audit = audit;
        this.clock = clock;
    }

    @Transactional
    public Sandbox create(Identity caller, Grant grant, SandboxBody.Create body) {
        policies.checkReferences(grant.orgId(), grant.projectId(), body.config());
        UUID id = UUID.randomUUID();
        TokenService.Minted<SandboxTokenRow> token = tokens.createSandboxToken(caller, grant, "sandbox/" + body.name(), null);
        Instant now = clock.instant();
        String slug = body.name() + "-" + id.toString().substring(0, 8);
        Sandbox row = new Sandbox(id, grant.orgId(), grant.projectId(), body.name(), slug, SandboxState.CREATING, "", null,
                1, null, body.timers().autoStop(), body.timers().autoDelete(), body.timers().autoStart(),
                token.row().id(),
                box.seal(token.token(), SandboxPolicies.tokenContext(id)), now, now, now, now, body.config());
        try {
            store.insert(row, actor(caller));
        } catch (RuntimeException e) {
            if (isUniqueViolation(e)) {
                throw new ApiProblem(ProblemCode.CONFLICT, "the project already has a sandbox named `" + body.name() + "`");
            }
            throw e;
        }
        store.addRevision(id, 1, body.config(), actor(caller));
        for (CredentialInput own : body.ownCredentials()) {
            credentials.createForSandbox(caller, grant.orgId(), grant.projectId(), id, own);
        }
        Sandbox created = store.find(id).orElseThrow();
        policies.publish(created);
        audit.record(AuditEvent.of(AuditKind.SANDBOX, "create").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(id.toString()).details(Map.of("name", body.name())).build());
        return created;
    }

    /** Applies an update: timers in place, a changed configuration as a new active revision (re-enforced now). */
    @Transactional
    public Sandbox update(Identity caller, Grant grant, UUID id, String text, SandboxBody.Ceiling ceiling) {
        Sandbox s = store.get(grant.projectId(), id);
        SandboxBody.Patch patch = SandboxBody.patch(text, s.config(), s.timers(), ceiling);
        store.setTimers(id, patch.timers());
        Map<String, Object> details = new HashMap<>();
        details.put("name", s.name());
        if (patch.configChanged()) {
            policies.checkReferences(s.orgId(), s.projectId(), patch.config());
            int revision = store.lastRevision(id) + 1;
            store.addRevision(id, revision, patch.config(), actor(caller));
            store.activate(id, revision);
            details.put("revision", revision);
        }
        Sandbox after = store.find(id).orElseThrow();
        policies.publish(after);
        audit.record(s.event("update", caller).details(details).build());
        return after;
    }

    /** Makes {@code revision} active (also on a stopped sandbox) and re-enforces it. */
    @Transactional
    public Sandbox promote(Identity caller, Grant grant, UUID id, int revision) {
        Sandbox s = store.get(grant.projectId(), id);
        if (revision < 1 || revision > store.lastRevision(id)) {
            throw ApiProblem.notFound("revision " + revision + " of sandbox `" + id + "`");
        }
        if (revision != s.activeRevision()) {
            store.activate(id, revision);
        }
        Sandbox after = store.find(id).orElseThrow();
        policies.publish(after);
        audit.record(s.event("promote", caller).details(Map.of("revision", revision, "from", s.activeRevision()))
                .build());
        return after;
    }

    /** A state change the API asked for (409 in a state that does not accept it). */
    @Transactional
    public Sandbox transition(Identity caller, Grant grant, UUID id, SandboxState.Transition move, String action) {
        Sandbox s = store.get(grant.projectId(), id);
        String stoppedBy = move.to() == SandboxState.STOPPED ? "user" : null;
        if (!store.transition(id, move, "", stoppedBy, clock.instant())) {
            throw new ApiProblem(ProblemCode.CONFLICT, "cannot " + action + " a sandbox that is " + s.state());
        }
        audit.record(s.event(action, caller).details(Map.of("name", s.name(), "from", s.state().slug())).build());
        return store.find(id).orElseThrow();
    }

    /** Deletes the record, its credentials, its token; its proxy forgets it. The runtime goes after commit. */
    @Transactional
    public Sandbox delete(Identity caller, Grant grant, UUID id) {
        Sandbox s = store.get(grant.projectId(), id);
        erase(s);
        audit.record(s.event("delete", caller).details(Map.of("name", s.name())).build());
        return s;
    }

    void erase(Sandbox s) {
        credentials.deleteOwnedBy(s.id());
        enforcement.remove(s.id(), s.orgId());
        store.delete(s.id());
        tokens.revokeSandboxTokenQuietly(s.tokenId());
    }

    private static String actor(Identity caller) {
        return caller.type() + ":" + caller.actorId();
    }

    private static boolean isUniqueViolation(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && "23505".equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
