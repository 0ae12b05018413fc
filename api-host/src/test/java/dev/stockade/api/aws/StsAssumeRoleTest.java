package dev.stockade.api.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.StsException;

/**
 * The platform side of AssumeRole: the official SDK's STS client as {@link StsEndpoints} builds it, against a double
 * that checks the Query protocol and the SigV4 signature and answers in STS's XML, successes and errors alike.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StsAssumeRoleTest {
    private static final String ROLE = "arn:aws:iam::123456789012:role/agents";
    private static final String EXTERNAL_ID = "stockade-ext-1";
    private StsDouble sts;
    private StsEndpoints endpoints;

    @BeforeAll
    void start() throws Exception {
        sts = new StsDouble("AKIAPLATFORM", "platform-secret", ROLE, EXTERNAL_ID);
        endpoints = new StsEndpoints(new AwsSettings(true, false, List.of(), true, Duration.ofMinutes(5),
                Duration.ofSeconds(10)));
    }

    @AfterAll
    void stop() {
        sts.close();
        endpoints.close();
    }

    private AwsConnection connection(String externalId) {
        return new AwsConnection(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "prod", ROLE, externalId,
                "eu-west-1", 900, sts.url(), Instant.now(), Instant.now());
    }

    private AssumeRoleResponse assume(AwsConnection c, String secret) {
        try (StsClient client = endpoints.client(c, StaticCredentialsProvider.create(
                AwsBasicCredentials.create("AKIAPLATFORM", secret)))) {
            return client.assumeRole(r -> r.roleArn(c.roleArn()).externalId(c.externalId())
                    .roleSessionName("stockade-sbx").durationSeconds(c.sessionDurationSeconds()));
        }
    }

    @Test
    void theSdkAssumesTheRoleWithTheExternalIdAndASignatureTheDoubleRecomputes() {
        int before = sts.assumed.size();
        AssumeRoleResponse r = assume(connection(EXTERNAL_ID), "platform-secret");
        assertThat(sts.assumed).hasSize(before + 1);
        StsDouble.Assumed seen = sts.assumed.get(before);
        assertThat(seen.roleArn()).isEqualTo(ROLE);
        assertThat(seen.externalId()).isEqualTo(EXTERNAL_ID);
        assertThat(seen.sessionName()).isEqualTo("stockade-sbx");
        assertThat(seen.durationSeconds()).isEqualTo(900);
        assertThat(r.credentials().accessKeyId()).isEqualTo(seen.accessKeyId());
        assertThat(r.credentials().secretAccessKey()).isEqualTo("secret-of-" + seen.accessKeyId());
        assertThat(r.credentials().sessionToken()).isEqualTo("session-of-" + seen.accessKeyId());
        assertThat(r.credentials().expiration()).isBetween(Instant.now().plusSeconds(800),
                Instant.now().plusSeconds(901));
        assertThat(r.assumedRoleUser().arn()).isEqualTo("arn:aws:sts::123456789012:assumed-role/agents/stockade-sbx");
    }

    @Test
    void aWrongExternalIdIsStsAccessDeniedInItsXmlErrorShape() {
        assertThatThrownBy(() -> assume(connection("someone-else"), "platform-secret"))
                .isInstanceOfSatisfying(StsException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(403);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
                });
    }

    @Test
    void aRequestSignedWithAnotherSecretIsRefusedAsSignatureDoesNotMatch() {
        assertThatThrownBy(() -> assume(connection(EXTERNAL_ID), "not-the-secret"))
                .isInstanceOfSatisfying(StsException.class, e ->
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch"));
    }

    @Test
    void endpointOverridesAreCheckedLikeEveryDialOfAUsersAddress() {
        StsEndpoints strict = new StsEndpoints(new AwsSettings(false, false, List.of(), false, Duration.ofMinutes(5),
                Duration.ofSeconds(10)));
        try {
            assertThat(strict.check("https://sts.eu-west-1.amazonaws.com/")).isEqualTo(
                    "https://sts.eu-west-1.amazonaws.com");
            assertThatThrownBy(() -> strict.check("http://sts.example.com")).hasMessageContaining("https");
            assertThatThrownBy(() -> strict.check("https://127.0.0.1")).hasMessageContaining("stsEndpoint");
            assertThatThrownBy(() -> strict.check("https://169.254.169.254")).hasMessageContaining("stsEndpoint");
            assertThatThrownBy(() -> strict.check("https://user:pw@sts.example.com")).hasMessageContaining("without");
            assertThatThrownBy(() -> strict.check("https://sts.example.com/x?y")).hasMessageContaining("without");
        } finally {
            strict.close();
        }
    }
}
