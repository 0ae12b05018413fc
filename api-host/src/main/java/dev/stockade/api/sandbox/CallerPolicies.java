package dev.stockade.api.sandbox;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.policy.compiler.Resolution;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The resolution that governs a caller in a project, for features that decide per caller (connector tools, model
 * calls): a sandbox token gets its sandbox's own policies; a person or an API token the policies bound to it there,
 * under the org ceiling. A caller with nothing to resolve (the owner's token, a sandbox token issued to no sandbox)
 * gets none.
 *
 * <p>Resolutions are kept per caller and project until a change that can alter one (policies, bindings, memberships,
 * a sandbox's policies, an organization's inference keys) arrives as an event on this replica; the generation in
 * the key makes a resolution computed while a change arrived land under a stale key, never served.
 */
@Singleton
public class CallerPolicies {
    /** The events after which a cached resolution may be wrong. */
    private static final List<Topic> TOPICS = List.of(Topic.GOVERNANCE, Topic.ACCESS, Topic.ENFORCEMENT);

    private final Effective effective;
    private final SandboxService sandboxes;
    private final SandboxPolicies policies;
    private final AtomicLong generation = new AtomicLong();
    private final Cache<String, Optional<Resolution>> cache = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(Duration.ofMinutes(5)).build();

    public CallerPolicies(Effective effective, SandboxService sandboxes, SandboxPolicies policies,
                          EventStream events) {
        this.effective = effective;
        this.sandboxes = sandboxes;
        this.policies = policies;
        TOPICS.forEach(t -> events.subscribe(t, e -> {
            generation.incrementAndGet();
            cache.invalidateAll();
        }));
    }

    /** The resolution for {@code caller} in {@code projectId} of {@code orgId}. */
    public Optional<Resolution> resolve(Identity caller, UUID orgId, UUID projectId) {
        String key = generation.get() + "|" + caller.type() + ":" + caller.actorId() + "|" + orgId + "|" + projectId;
        return cache.get(key, k -> compute(caller, orgId, projectId));
    }

    private Optional<Resolution> compute(Identity caller, UUID orgId, UUID projectId) {
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
