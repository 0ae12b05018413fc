package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Policies, bindings, effective policy, drift and credentials through the CLI, on the running platform. */
class GovernanceCliTest extends SignedInCliTest {


    @Test
    void policiesBindingsEffectivePolicyDriftAndCredentials() throws Exception {
        String org = ok("orgs", "create", "gov-cli").path("id").asText();
        String project = ok("projects", "create", "--org", org, "app").path("id").asText();
        Path ceiling = Files.writeString(dir.resolve("ceiling.yaml"), """
                name: ceiling
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: "*.github.com"
                    verdict: allow
                """);
        Path wants = Files.writeString(dir.resolve("wants.yaml"), """
                name: wants
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: api.github.com
                    verdict: allow
                  - pattern: evil.test
                    verdict: allow
                """);
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "name: broken\nallowedDomains:\n  - pattern: 7\n");
        ok("policies", "create", "--org", org, "-f", ceiling.toString());
        String policy = ok("policies", "create", "--project", project, "-f", wants.toString()).path("id").asText();
        Cli.Run refused = cli.run("policies", "create", "--project", project, "-f", broken.toString());
        assertThat(refused.status()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("validation_failed").contains("/allowedDomains/0");
        assertThat(ok("policies", "list", "--project", project).path("items")).hasSize(1);

        String tokenId = ok("tokens", "create", "--org", org, "ci").path("id").asText();
        ok("policy-bindings", "create", "--project", project, "--policy", policy, "--api-token", tokenId);
        JsonNode effective = ok("policy-bindings", "effective", "--project", project, "--api-token", tokenId);
        assertThat(effective.path("drift").path("blockedDomainDetails").toString()).contains("evil.test");
        JsonNode drift = ok("policy-bindings", "drift", "--org", org);
        assertThat(drift.path("items")).hasSize(1);

        String secret = "cli-secret-" + UUID.randomUUID();
        Path secretFile = Files.writeString(dir.resolve("secret"), secret + "\n");
        JsonNode created = ok("credentials", "create", "--project", project, "github", "--secret-file",
                secretFile.toString(), "--domain", "api.github.com", "--header", "Authorization: Bearer {secret}");
        String credential = created.path("id").asText();
        Cli.Run table = cli.run("credentials", "list", "--project", project);
        assertThat(table.out()).contains("github").doesNotContain(secret);
        assertThat(created.toString()).doesNotContain(secret);
        ok("credentials", "rotate", "--project", project, credential, "--secret-file", secretFile.toString());
        assertThat(cli.run("credentials", "delete", "--project", project, credential).status()).isZero();
        assertThat(cli.run("credentials", "get", "--project", project, credential).status()).isEqualTo(1);
    }
}
