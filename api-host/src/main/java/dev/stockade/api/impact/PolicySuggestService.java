package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.sandbox.SandboxService;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.ReplayCapExceeded;
import dev.stockade.policy.impact.Suggester;
import dev.stockade.policy.impact.TrailEntries;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Policy suggest over the platform's own trail: the least-privilege policy that admits what a window of the
 * organization's (or the grant's project's) trail allowed, drafted by the core's {@link Suggester} from the same
 * entries impact replays. Read-only, and bounded as impact is before anything is read.
 */
@Singleton
public class PolicySuggestService {
    private final PlatformTrail trail;
    private final EnforcementStore enforcement;
    private final SandboxService sandboxes;
    private final ObjectMapper json;
    private final ImpactLimits limits = ImpactLimits.defaults();

    PolicySuggestService(PlatformTrail trail, EnforcementStore enforcement, SandboxService sandboxes,
                         ObjectMapper json) {
        this.trail = trail;
        this.enforcement = enforcement;
        this.sandboxes = sandboxes;
        this.json = json;
    }

    /** Suggests from the window {@code body} names, within the grant's organization or project. */
    public SuggestView suggest(Grant grant, String body) {
        SuggestRequest request = SuggestRequest.parse(json, body, limits, Instant.now());
        if (request.sandbox() != null) {
            inScope(grant, request.sandbox());
        }
        Suggester suggester = new Suggester(request.options());
        SandboxCallers callers = new SandboxCallers(token -> sandboxes.byToken(token).map(Sandbox::id));
        try {
            trail.each(grant, request.window(), entry -> suggester.add(TrailEntries.read(callers.attributed(entry))));
        } catch (ReplayCapExceeded e) {
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, e.getMessage(),
                    List.of(new FieldError("/since", "too-many-entries", e.getMessage())));
        }
        return SuggestView.of(request.window(), suggester.suggestion(), request.options(), limits);
    }

    /**
     * A sandbox the platform enforces (or enforced) policy for, in the grant's organization and project; any other id
     * is not found, so another tenant's sandbox looks like none.
     */
    private void inScope(Grant grant, UUID sandbox) {
        boolean ours = enforcement.owner(sandbox).filter(o -> o[0].equals(grant.orgId())
                && (grant.projectId() == null || grant.projectId().equals(o[1]))).isPresent();
        if (!ours) {
            throw ApiProblem.notFound("sandbox `" + sandbox + "`");
        }
    }
}
