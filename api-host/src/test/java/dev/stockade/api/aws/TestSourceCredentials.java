package dev.stockade.api.aws;

import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** The platform's own AWS key in tests that name one, so the STS double can check the platform's signature. */
@Factory
@Requires(property = "aws.test-source-key-id")
class TestSourceCredentials {
    @Singleton
    @Named(SourceCredentials.NAME)
    @Replaces(bean = AwsCredentialsProvider.class, factory = SourceCredentials.class, named = SourceCredentials.NAME)
    AwsCredentialsProvider fixed(@Value("${aws.test-source-key-id}") String keyId,
                                 @Value("${aws.test-source-secret}") String secret) {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret));
    }
}
