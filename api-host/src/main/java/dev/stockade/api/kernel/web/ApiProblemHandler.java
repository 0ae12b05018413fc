package dev.stockade.api.kernel.web;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** Turns a service's {@link ApiProblem} into its problem details response. */
@Produces
@Singleton
@Requires(classes = {ApiProblem.class, ExceptionHandler.class})
record ApiProblemHandler(Problems problems) implements ExceptionHandler<ApiProblem, HttpResponse<?>> {
    @Override
    public HttpResponse<?> handle(HttpRequest request, ApiProblem exception) {
        return problems.response(exception);
    }
}
