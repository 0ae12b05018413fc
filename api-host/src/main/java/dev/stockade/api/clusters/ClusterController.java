package dev.stockade.api.clusters;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Status;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.util.List;

/** Registered clusters (spec: Connections): CRUD and the rotation of a cluster's tunnel token. */
@Controller("/v1")
@Tag(name = "clusters")
class ClusterController {
    private final ClusterService service;
    private final RelayHub relays;

    ClusterController(ClusterService service, RelayHub relays) {
        this.service = service;
        this.relays = relays;
    }

    /** A project's clusters. */
    @Introspected
    record Clusters(List<Cluster> items) {
    }

    @Get("/projects/{projectId}/clusters")
    @Access(Action.CLUSTER_LIST)
    Clusters list(HttpRequest<?> request, String projectId) {
        return new Clusters(service.list(Caller.grant(request).projectId()));
    }

    /** Registers a cluster; the answer carries its tunnel token, shown this once. */
    @Post("/projects/{projectId}/clusters")
    @Status(HttpStatus.CREATED)
    @Access(Action.CLUSTER_CREATE)
    Cluster.WithTunnelToken create(HttpRequest<?> request, String projectId,
                                   @Valid @Body ClusterRequests.CreateCluster body) {
        return service.create(Caller.identity(request), Caller.grant(request), body);
    }

    @Get("/clusters/{clusterId}")
    @Access(Action.CLUSTER_READ)
    Cluster get(HttpRequest<?> request, String clusterId) {
        return service.get(id(request, clusterId));
    }

    @Patch("/clusters/{clusterId}")
    @Access(Action.CLUSTER_UPDATE)
    Cluster update(HttpRequest<?> request, String clusterId, @Valid @Body ClusterRequests.UpdateCluster body) {
        return service.update(Caller.identity(request), id(request, clusterId), body);
    }

    @Delete("/clusters/{clusterId}")
    @Access(Action.CLUSTER_DELETE)
    HttpResponse<Void> delete(HttpRequest<?> request, String clusterId) {
        service.delete(Caller.identity(request), id(request, clusterId));
        relays.drop(id(request, clusterId)); // after the commit: a relay cannot re-poll into the old state
        return HttpResponse.noContent();
    }

    /** A new tunnel token, shown this once; the old one stops working at once (a connected relay is dropped). */
    @Post("/clusters/{clusterId}/rotate-tunnel-token")
    @Access(Action.CLUSTER_ROTATE_TUNNEL_TOKEN)
    Cluster.WithTunnelToken rotate(HttpRequest<?> request, String clusterId) {
        Cluster.WithTunnelToken rotated = service.rotateTunnelToken(Caller.identity(request), id(request, clusterId));
        relays.drop(rotated.id()); // committed: the old token's next poll is refused, its current poll ends now
        return rotated;
    }

    /** The cluster id, already checked by the authorization of the route (which resolved its project). */
    private static java.util.UUID id(HttpRequest<?> request, String clusterId) {
        return dev.stockade.api.kernel.access.Authorizer.uuid("clusterId", clusterId);
    }
}
