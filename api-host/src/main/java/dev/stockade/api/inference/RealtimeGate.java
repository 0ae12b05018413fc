package dev.stockade.api.inference;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.Problems;
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
 * Admits a realtime voice handshake before the upgrade, so a refusal is an HTTP answer with a problem body (404, 429,
 * 400, 403 for a halt) the client's WebSocket library reports, not a socket that opens and closes. Runs after the
 * access filter, which authenticated and authorized the handshake.
 */
@ServerFilter({"/v1/projects/*/llm/**", "/v1/llm/**"})
record RealtimeGate(RealtimeRelay relay, Problems problems) implements Ordered {
    /** The request attribute holding the {@link RealtimeRelay.Admitted} handshake. */
    static final String ADMITTED = "stockade.realtime";

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 200; // after the access filter
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    HttpResponse<?> filter(HttpRequest<?> request) {
        String upgrade = request.getHeaders().get(HttpHeaders.UPGRADE);
        if (upgrade == null || !upgrade.equalsIgnoreCase("websocket")) {
            return null;
        }
        String raw = request.getUri().getRawPath();
        int at = raw.indexOf("/llm/");
        try {
            request.setAttribute(ADMITTED, relay.admit(request, raw.substring(at + "/llm/".length())));
            return null;
        } catch (ApiProblem refused) {
            return LlmController.refusal(problems, refused);
        }
    }
}
