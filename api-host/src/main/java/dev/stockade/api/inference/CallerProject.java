package dev.stockade.api.inference;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The project of a model call on {@code /v1/llm/...} (no project in the path): the caller's only one, authorized as
 * if the path had named it; a caller with none or several is told to name one. One rule for HTTP calls and
 * realtime sessions.
 */
final class CallerProject {
    private CallerProject() {
    }

    /** {@code grant} when its path named a project, else the grant for the caller's only project. */
    static Grant of(Authorizer authorizer, Identity caller, Grant grant) {
        if (grant.projectId() != null) {
            return grant;
        }
        List<UUID> projects = authorizer.projectsOf(caller, 2);
        if (projects.size() != 1) {
            throw new ApiProblem(ProblemCode.BAD_REQUEST, projects.isEmpty()
                    ? "this caller is a member of no project: call /v1/projects/{projectId}/llm/..."
                    : "this caller has several projects: call /v1/projects/{projectId}/llm/... to name one");
        }
        return authorizer.authorize(caller, Action.LLM_CALL, Map.of("projectId", projects.get(0).toString()));
    }
}
