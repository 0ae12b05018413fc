package dev.stockade.api.clusters;

import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.UUID;

/**
 * A registered Kubernetes cluster as the API shows it (its tunnel token never: only its hash is stored).
 *
 * @param mode                  {@code direct} when the platform dials {@code apiServerUrl}, else {@code relay}
 * @param relayConnected        whether the cluster's relay polls this replica now (relay mode)
 * @param tunnelTokenRotatedAt  when the current tunnel token was made
 */
@Introspected
public record Cluster(UUID id, UUID orgId, UUID projectId, String name, String description,
                      @Nullable String apiServerUrl, @Nullable String caCertificate, String mode,
                      boolean relayConnected, Instant tunnelTokenRotatedAt, Instant createdAt, Instant updatedAt) {

    /** The view of a cluster just created or whose tunnel token was just rotated: the token, shown once. */
    @Introspected
    public record WithTunnelToken(UUID id, UUID orgId, UUID projectId, String name, String description,
                                  @Nullable String apiServerUrl, @Nullable String caCertificate, String mode,
                                  boolean relayConnected, Instant tunnelTokenRotatedAt, Instant createdAt,
                                  Instant updatedAt, String tunnelToken) {
        static WithTunnelToken of(Cluster c, String token) {
            return new WithTunnelToken(c.id, c.orgId, c.projectId, c.name, c.description, c.apiServerUrl,
                    c.caCertificate, c.mode, c.relayConnected, c.tunnelTokenRotatedAt, c.createdAt, c.updatedAt,
                    token);
        }
    }
}
