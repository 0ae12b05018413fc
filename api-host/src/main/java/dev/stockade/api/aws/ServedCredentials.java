package dev.stockade.api.aws;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.micronaut.core.annotation.Introspected;

/**
 * The body of the container credentials protocol, as the AWS SDKs' container credentials providers read it: the
 * assumed role's temporary key, secret, session token and their expiry (ISO 8601). Never logged or audited.
 */
@Introspected
public record ServedCredentials(@JsonProperty("AccessKeyId") String accessKeyId,
                                @JsonProperty("SecretAccessKey") String secretAccessKey,
                                @JsonProperty("Token") String token,
                                @JsonProperty("Expiration") String expiration,
                                @JsonProperty("RoleArn") String roleArn) {

    /** Hides the secret parts, should the record ever be printed. */
    @Override
    public String toString() {
        return "ServedCredentials[accessKeyId=" + accessKeyId + ", expiration=" + expiration + ", roleArn=" + roleArn
                + "]";
    }
}
