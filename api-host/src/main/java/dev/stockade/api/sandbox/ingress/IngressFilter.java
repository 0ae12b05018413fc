package dev.stockade.api.sandbox.ingress;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

/**
 * Requests for a host under {@code sandboxIngress.host} are not API calls: they go to a sandbox's exposed port
 * ({@link Ingress}), before the API's access filter and its enrollment gate (the spec exempts every ingress host).
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
record IngressFilter(IngressSettings settings, Ingress ingress) implements Ordered {
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 50; // before the access filter (+100)
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    HttpResponse<?> filter(HttpRequest<?> request) {
        return settings.label(request.getHeaders().get(HttpHeaders.HOST))
                .<HttpResponse<?>>map(label -> ingress.serve(request, label)).orElse(null);
    }
}
