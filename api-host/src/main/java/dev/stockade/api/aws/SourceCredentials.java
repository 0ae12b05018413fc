package dev.stockade.api.aws;

import io.micronaut.context.annotation.Factory;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * Where the platform's own AWS credentials come from when it calls AssumeRole: the SDK's default provider chain
 * (environment, profile, web identity, container or instance role), so the platform's principal is whatever role the
 * deployment gives it. These credentials sign STS calls only and never reach a sandbox.
 */
@Factory
class SourceCredentials {
    static final String NAME = "aws-source";

    @Singleton
    @Named(NAME)
    AwsCredentialsProvider defaultChain() {
        return DefaultCredentialsProvider.builder().build();
    }
}
