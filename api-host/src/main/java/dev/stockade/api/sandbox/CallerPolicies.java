package dev.stockade.api.sandbox;

import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.policy.compiler.Resolution;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.UUID;

/**
 * The resolution that governs a caller in a project, for features that decide per caller (connector tools, model
 * calls): a sandbox token gets its sandbox's own policies; a person or an API token the policies bound to it there,
 * under the org ceiling. A caller with nothing to resolve (the owner's token, a sandbox token issued to no sandbox)
 * gets none.
 */
@Singleton
public class CallerPolicies {
    private final Effective effective;
    private final SandboxService sandboxes;
    private final SandboxPolicies policies;

    public CallerPolicies(Effective effective, SandboxService sandboxes, SandboxPolicies policies) {
        this.effective = effective;
        this.sandboxes = sandboxes;
        this.policies = policies;
    }

    /** The resolution for {@code caller} in {@code projectId} of {@code orgId}. */
    public Optional<Resolution> resolve(Identity caller, UUID orgId, UUID projectId) {
        if (caller instanceof Identity.SandboxToken s) {
            return sandboxes.byToken(s.tokenId()).map(policies::resolve);
        }
        String type;
        UUID subject;
        if (caller instanceof Identity.User u) {
            type = "user";
            subject = u.userId();
        } else if (caller instanceof Identity.ApiToken a) {
            type = "api-token";
            subject = a.tokenId();
        } else {
            return Optional.empty();
        }
        return Optional.of(effective.resolve(orgId, new Effective.Documents(effective.ceiling(orgId),
                effective.grantsFor(orgId, projectId, type, subject))));
    }

    /** The sandbox a sandbox token was minted for, if the caller is one. */
    public Optional<Sandbox> sandboxOf(Identity caller) {
        return caller instanceof Identity.SandboxToken s ? sandboxes.byToken(s.tokenId()) : Optional.empty();
    }
}
