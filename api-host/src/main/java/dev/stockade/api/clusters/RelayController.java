package dev.stockade.api.clusters;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.identity.BearerToken;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.IOException;
import java.util.UUID;

/**
 * The relay's tunnel, opened from inside the customer's cluster with the cluster's tunnel token
 * ({@code Authorization: Bearer stk_tun_...}): {@code POST .../relay/next} long-polls for the next request (200 with
 * an {@link RelayHub.Envelope}, 204 when none came within the poll wait), {@code POST .../relay/answers/{requestId}}
 * returns its answer. A wrong, old or missing token gets 401, exactly as an unknown cluster does.
 */
@Controller("/v1/clusters/{clusterId}/relay")
@Tag(name = "clusters")
record RelayController(ClusterService clusters, RelayHub hub, ObjectMapper json) {
    @Post("/next")
    @Access(Action.CLUSTER_RELAY_TUNNEL)
    HttpResponse<RelayHub.Envelope> next(HttpRequest<?> request, String clusterId) {
        UUID id = authenticate(request, clusterId);
        return hub.next(id).map(HttpResponse::ok).orElseGet(HttpResponse::noContent);
    }

    @Post("/answers/{requestId}")
    @Access(Action.CLUSTER_RELAY_TUNNEL)
    @Consumes(MediaType.ALL)
    HttpResponse<Void> answer(HttpRequest<?> request, String clusterId, String requestId,
                              @Nullable @Body byte[] raw) {
        UUID id = authenticate(request, clusterId); // before the body is read: strangers learn nothing from it
        RelayHub.Answer body;
        try {
            body = json.readValue(raw == null ? new byte[0] : raw, RelayHub.Answer.class);
        } catch (IOException e) {
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, "the answer must be a JSON object with `status`,"
                    + " `headers` and `body` (base64)");
        }
        if (body.status() < 100 || body.status() > 599) {
            throw ApiProblem.invalid("/status", "range", "`status` must be an HTTP status (100 to 599)");
        }
        if (!hub.answer(id, requestId, body)) {
            throw ApiProblem.notFound("relay request `" + requestId + "`");
        }
        return HttpResponse.noContent();
    }

    private UUID authenticate(HttpRequest<?> request, String clusterId) {
        UUID id = Authorizer.uuid("clusterId", clusterId);
        String token = BearerToken.of(request.getHeaders().get(HttpHeaders.AUTHORIZATION)).orElse(null);
        if (!clusters.tunnelTokenMatches(id, token)) {
            throw new ApiProblem(ProblemCode.UNAUTHENTICATED, "the relay's tunnel needs the cluster's current tunnel"
                    + " token");
        }
        return id;
    }
}
