package dev.stockade.api.clusters;

import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** Request bodies of the cluster routes. Unknown fields are refused (strict reading); sizes are bounded. */
public final class ClusterRequests {
    private ClusterRequests() {
    }

    /** A cluster name: 1 to 100 characters, no control characters (as other names of the platform). */
    static final String NAME = "[^\\p{Cntrl}]{1,100}";

    /**
     * Registers a cluster.
     *
     * @param apiServerUrl  the API server to dial directly; omitted: the cluster is reached through its relay only
     * @param caCertificate PEM certificates to trust for {@code apiServerUrl} (omitted: the JVM's trust store)
     */
    @Introspected
    public record CreateCluster(@NotBlank @Pattern(regexp = NAME) String name,
                                @Nullable @Size(max = 2000) String description,
                                @Nullable @Size(max = 2048) String apiServerUrl,
                                @Nullable @Size(max = 65536) String caCertificate) {
    }

    /** Changes what is given; omitted fields stay; an empty {@code apiServerUrl} or {@code caCertificate} clears it. */
    @Introspected
    public record UpdateCluster(@Nullable @Pattern(regexp = NAME) String name,
                                @Nullable @Size(max = 2000) String description,
                                @Nullable @Size(max = 2048) String apiServerUrl,
                                @Nullable @Size(max = 65536) String caCertificate) {
    }
}
