package dev.stockade.api.clusters;

import dev.stockade.api.kernel.web.DisplayName;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** Request bodies of the cluster routes. Unknown fields are refused (strict reading); sizes are bounded. */
public final class ClusterRequests {
    private ClusterRequests() {
    }

    /**
     * Registers a cluster.
     *
     * @param apiServerUrl  the API server to dial directly; omitted: the cluster is reached through its relay only
     * @param caCertificate PEM certificates to trust for {@code apiServerUrl} (omitted: the JVM's trust store)
     */
    @Introspected
    public record CreateCluster(@NotBlank @DisplayName String name,
                                @Nullable @Size(max = 2000) String description,
                                @Nullable @Size(max = 2048) String apiServerUrl,
                                @Nullable @Size(max = 65536) String caCertificate) {
    }

    /** Changes what is given; omitted fields stay; an empty {@code apiServerUrl} or {@code caCertificate} clears it. */
    @Introspected
    public record UpdateCluster(@Nullable @DisplayName String name,
                                @Nullable @Size(max = 2000) String description,
                                @Nullable @Size(max = 2048) String apiServerUrl,
                                @Nullable @Size(max = 65536) String caCertificate) {
    }
}
