package dev.stockade.api.aws;

import dev.stockade.api.kernel.web.DisplayName;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** Request bodies of the AWS connection routes. Unknown fields are refused (strict reading); sizes are bounded. */
public final class AwsConnectionRequests {
    private AwsConnectionRequests() {
    }

    /**
     * Creates a connection.
     *
     * @param externalId             the external ID the role's trust policy requires; omitted: one is generated
     * @param sessionDurationSeconds omitted: 3600
     * @param stsEndpoint            omitted: the STS endpoint of {@code region}
     */
    @Introspected
    public record CreateConnection(@NotBlank @DisplayName String name,
                                   @NotBlank @Size(max = 2048) String roleArn,
                                   @Nullable @Size(max = 1224) String externalId,
                                   @NotBlank @Size(max = 64) String region,
                                   @Nullable Integer sessionDurationSeconds,
                                   @Nullable @Size(max = 2048) String stsEndpoint) {
    }

    /** Changes what is given; omitted fields stay; an empty {@code stsEndpoint} clears the override. */
    @Introspected
    public record UpdateConnection(@Nullable @DisplayName String name,
                                   @Nullable @Size(max = 2048) String roleArn,
                                   @Nullable @Size(max = 1224) String externalId,
                                   @Nullable @Size(max = 64) String region,
                                   @Nullable Integer sessionDurationSeconds,
                                   @Nullable @Size(max = 2048) String stsEndpoint) {
    }
}
