package dev.stockade.api.clusters;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.server.types.files.StreamedFile;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * {@code /v1/clusters/{clusterId}/proxy/{path}}: the Kubernetes API of a registered cluster for the sandboxes of its
 * project, authenticated by their cluster JWT only ({@link Action#CLUSTER_PROXY}; an API token or OIDC session gets
 * 401 from the access filter). Upgrade requests (exec, attach, port-forward) never reach it: {@link ClusterUpgrade}
 * takes them off the pipeline first.
 */
@Controller("/v1/clusters/{clusterId}/proxy")
@Tag(name = "clusters")
record ClusterProxyController(ClusterProxy proxy) {
    @Get("/{path:.+}")
    @Access(Action.CLUSTER_PROXY)
    HttpResponse<?> get(HttpRequest<?> request, String clusterId, String path) {
        return forward(request, clusterId, null);
    }

    @Delete("/{path:.+}")
    @Consumes(MediaType.ALL)
    @Access(Action.CLUSTER_PROXY)
    HttpResponse<?> delete(HttpRequest<?> request, String clusterId, String path, @Nullable @Body byte[] body) {
        return forward(request, clusterId, body);
    }

    @Post("/{path:.+}")
    @Consumes(MediaType.ALL)
    @Access(Action.CLUSTER_PROXY)
    HttpResponse<?> post(HttpRequest<?> request, String clusterId, String path, @Nullable @Body byte[] body) {
        return forward(request, clusterId, body);
    }

    @Put("/{path:.+}")
    @Consumes(MediaType.ALL)
    @Access(Action.CLUSTER_PROXY)
    HttpResponse<?> put(HttpRequest<?> request, String clusterId, String path, @Nullable @Body byte[] body) {
        return forward(request, clusterId, body);
    }

    @Patch("/{path:.+}")
    @Consumes(MediaType.ALL)
    @Access(Action.CLUSTER_PROXY)
    HttpResponse<?> patch(HttpRequest<?> request, String clusterId, String path, @Nullable @Body byte[] body) {
        return forward(request, clusterId, body);
    }

    private HttpResponse<?> forward(HttpRequest<?> request, String clusterId, byte[] body) {
        String prefix = "/v1/clusters/" + clusterId + "/proxy";
        String rawPath = request.getUri().getRawPath();
        ClusterProxy.Answer answer = proxy.forward((Identity.ClusterToken) Caller.identity(request),
                Authorizer.uuid("clusterId", clusterId), request.getMethodName(),
                rawPath.startsWith(prefix) ? rawPath.substring(prefix.length()) : "", request.getUri().getRawQuery(),
                request.getHeaders().asMap(), body == null ? new byte[0] : body);
        MutableHttpResponse<StreamedFile> out = HttpResponse.<StreamedFile>ok().status(answer.status());
        answer.headers().forEach((name, values) -> values.forEach(v -> out.header(name, v)));
        if (answer.status() == 204 || answer.status() == 304) {
            close(answer);
            return out; // no body, as the cluster sent none
        }
        String type = answer.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("content-type"))
                .flatMap(e -> e.getValue().stream()).findFirst().orElse(MediaType.APPLICATION_OCTET_STREAM);
        return out.body(new StreamedFile(answer.body(), MediaType.of(type)));
    }

    private static void close(ClusterProxy.Answer answer) {
        try {
            answer.body().close();
        } catch (java.io.IOException e) {
            // nothing was to be read from it
        }
    }
}
