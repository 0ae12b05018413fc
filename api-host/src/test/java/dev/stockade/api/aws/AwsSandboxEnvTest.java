package dev.stockade.api.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.PolicyReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which connections a sandbox's policies name, and the container credentials URL its SDKs are pointed at. */
class AwsSandboxEnvTest {
    private static dev.stockade.policy.model.Policy policy(String yaml) {
        return PolicyReader.read("p.yaml", yaml).policy();
    }

    @Test
    void namedConnectionsComeOnceInTheOrderTheyAreFirstNamedAndClustersAreNotAwsConnections() {
        List<String> named = AwsSandboxEnv.named(List.of(
                policy("name: a\nintegrations:\n  - {type: aws-connection, name: prod}\n"
                        + "  - {type: kubernetes, name: k}\n"),
                policy("name: b\n"),
                policy("name: c\nintegrations:\n  - {type: aws-connection, name: logs}\n"
                        + "  - {type: aws-connection, name: prod}\n")));
        assertThat(named).containsExactly("prod", "logs");
    }

    @Test
    void theUrlIsThePlatformsApiAsTheSandboxReachesItWithTheNameEscaped() {
        assertThat(AwsSandboxEnv.credentialsUrl("http://10.88.0.1:4180/v1", "prod"))
                .isEqualTo("http://10.88.0.1:4180/v1/sandbox/aws-credentials/prod");
        assertThat(AwsSandboxEnv.credentialsUrl("https://platform.example.com/v1/", "a b"))
                .isEqualTo("https://platform.example.com/v1/sandbox/aws-credentials/a%20b");
    }
}
