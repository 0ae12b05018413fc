package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.identity.ClusterTokens;
import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.UUID;

/** {@code GET /v1/auth/me} and the cluster token a sandbox exchanges its sandbox token for. */
@Controller("/v1/auth")
@Tag(name = "identity")
record AuthController(ClusterTokens clusterTokens) {
    /** The identity behind the token: its type and the ids that scope it. */
    @Introspected
    record Me(String type, String id, @Nullable UUID orgId, @Nullable UUID projectId, @Nullable String email,
              @Nullable String name) {
    }

    @Introspected
    record IssuedClusterToken(String token, Instant expiresAt) {
    }

    @Get("/me")
    @Access(Action.AUTH_ME)
    Me me(HttpRequest<?> request) {
        Identity id = Caller.identity(request);
        if (id instanceof Identity.User u) {
            return new Me(id.type(), id.actorId(), null, null, u.email(), u.name());
        }
        if (id instanceof Identity.ApiToken t) {
            return new Me(id.type(), id.actorId(), t.orgId(), null, null, t.name());
        }
        if (id instanceof Identity.SandboxToken s) {
            return new Me(id.type(), id.actorId(), s.orgId(), s.projectId(), null, null);
        }
        return new Me(id.type(), id.actorId(), null, null, null, null);
    }

    /** A 15-minute cluster JWT for the calling sandbox's kubeconfig. */
    @Post("/cluster-token")
    @Access(Action.CLUSTER_TOKEN_ISSUE)
    IssuedClusterToken clusterToken(HttpRequest<?> request) {
        Identity.SandboxToken s = (Identity.SandboxToken) Caller.identity(request);
        String token = clusterTokens.issue(s.projectId(), "sandbox-token:" + s.tokenId());
        return new IssuedClusterToken(token, Instant.now().plus(ClusterTokens.LIFETIME));
    }
}
