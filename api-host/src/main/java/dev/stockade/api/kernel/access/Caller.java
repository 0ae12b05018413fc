package dev.stockade.api.kernel.access;

import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.http.HttpRequest;

/** Reads what {@link AccessFilter} established for a request. */
public final class Caller {
    private Caller() {
    }

    public static Identity identity(HttpRequest<?> request) {
        return request.getAttribute(AccessFilter.IDENTITY, Identity.class)
                .orElseThrow(() -> new ApiProblem(ProblemCode.UNAUTHENTICATED, "a bearer token is required"));
    }

    public static Grant grant(HttpRequest<?> request) {
        return request.getAttribute(AccessFilter.GRANT, Grant.class)
                .orElseThrow(() -> new ApiProblem(ProblemCode.FORBIDDEN, "the request was not authorized"));
    }
}
