package dev.stockade.api.web;

import dev.stockade.api.identity.Identity;
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
