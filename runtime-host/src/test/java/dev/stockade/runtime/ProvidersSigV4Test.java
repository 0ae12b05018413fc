package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.config.RuntimeConfig;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When the Bedrock runtime is signed with SigV4: a direct container with an access key pair and no Bedrock API key. */
class ProvidersSigV4Test {
    private static RuntimeConfig load(String... kv) {
        Map<String, String> env = new HashMap<>();
        env.put("LLM_PROVIDER", "bedrock");
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return RuntimeConfig.load(env, "/nonexistent-home");
    }

    @Test
    void anAccessKeyPairSignsOnlyWhenNothingElseAuthenticates() {
        assertThat(Providers.sigv4(load("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY", "s3cr3t",
                "AWS_REGION", "eu-west-3"))).hasToString("AwsSigV4[eu-west-3]");
        assertThat(Providers.sigv4(load("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY", "s3cr3t",
                "AWS_BEARER_TOKEN_BEDROCK", "api-key"))).as("a Bedrock API key wins").isNull();
        assertThat(Providers.sigv4(load("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY", "s3cr3t",
                "PLATFORM_API_URL", "https://platform.example.com"))).as("through the platform").isNull();
        assertThat(Providers.sigv4(load("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"))).as("half a pair").isNull();
        assertThat(Providers.sigv4(load())).isNull();
    }
}
