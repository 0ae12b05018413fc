package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code stockade inference}: the deployment's backends and an organization's view of them, and the key routes'
 * refusal of every token that is not a signed-in org administrator (spec: Authentication rule 3).
 */
class InferenceCliTest extends SignedInCliTest {

    @Test
    void theProvidersAreListedForTheDeploymentAndForAnOrganization() {
        JsonNode deployment = ok("inference", "providers");
        assertThat(deployment.path("providers")).hasSize(6);
        assertThat(deployment.path("providers").get(0).path("provider").asText()).isEqualTo("bedrock");
        String org = ok("orgs", "create", "inference-cli").path("id").asText();
        JsonNode mine = ok("inference", "providers", "--org", org);
        assertThat(mine.path("providers")).hasSize(6);
        Cli.Run table = cli.run("inference", "providers", "--org", org);
        assertThat(table.status()).as(table.toString()).isZero();
        assertThat(table.out()).contains("PROVIDER", "AVAILABLE", "openrouter");
    }

    @Test
    void anApiTokenCannotSetAnOrganizationsKey() throws Exception {
        String org = ok("orgs", "create", "inference-keys-cli").path("id").asText();
        Path key = Files.createTempFile("key", ".txt");
        Files.writeString(key, "sk-cli-never-shown\n");
        Cli.Run set = cli.run("inference", "keys", "set", "--org", org, "--source", "openai", "--key-file",
                key.toString());
        assertThat(set.status()).isEqualTo(Exit.REFUSED);
        assertThat(set.err()).contains("(forbidden, HTTP 403)").doesNotContain("sk-cli-never-shown");
        Cli.Run list = cli.run("inference", "keys", "list", "--org", org);
        assertThat(list.status()).isEqualTo(Exit.REFUSED);
    }
}
