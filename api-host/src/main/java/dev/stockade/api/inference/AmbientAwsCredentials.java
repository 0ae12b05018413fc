package dev.stockade.api.inference;

import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * The AWS credentials the platform itself runs with (environment, profile, web identity, container or instance
 * role: the AWS SDK's default chain), used to sign Bedrock calls when neither the organization nor the installation
 * has a Bedrock API key and {@code inference.bedrock.ambient-credentials} is on. The chain refreshes expiring
 * credentials itself; none found means no key, never a call sent unsigned.
 */
@Singleton
class AmbientAwsCredentials {
    /** The name of the provider bean, so a test can hand the platform fixed credentials through the same seam. */
    static final String CHAIN = "bedrock-ambient";
    private static final Logger LOG = LoggerFactory.getLogger(AmbientAwsCredentials.class);

    private final AwsCredentialsProvider chain;

    AmbientAwsCredentials(@Named(CHAIN) AwsCredentialsProvider chain) {
        this.chain = chain;
    }

    /** The credentials the chain finds now; empty when it finds none (the reason is logged, never a key). */
    Optional<AwsCredentialsIdentity> current() {
        try {
            return Optional.of(chain.resolveCredentials());
        } catch (SdkException | IllegalStateException e) {
            LOG.warn("no ambient AWS credentials for Bedrock: {}", e.getClass().getSimpleName());
            return Optional.empty();
        }
    }

    /** The AWS SDK's default credential chain, built lazily so an installation without AWS never touches it. */
    @Factory
    static class Chain {
        @Bean(preDestroy = "close")
        @Singleton
        @Named(CHAIN)
        DefaultCredentialsProvider defaultChain() {
            return DefaultCredentialsProvider.builder().build();
        }
    }
}
