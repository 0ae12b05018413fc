package dev.stockade.api.aws;

import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.UUID;

/**
 * A project's AWS connection as the API shows it: the IAM role the platform assumes for a sandbox whose policy names
 * the connection by {@code name}. The external ID is shown because the role's trust policy must name it.
 *
 * @param sessionDurationSeconds how long each set of assumed-role credentials lives (900 to 43200)
 * @param stsEndpoint            an STS endpoint override (a regional or test endpoint); {@code null}: the region's own
 */
@Introspected
public record AwsConnection(UUID id, UUID orgId, UUID projectId, String name, String roleArn, String externalId,
                            String region, int sessionDurationSeconds, @Nullable String stsEndpoint,
                            Instant createdAt, Instant updatedAt) {
}
