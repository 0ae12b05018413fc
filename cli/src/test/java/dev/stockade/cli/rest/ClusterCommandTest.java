package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code stockade cluster create|list|get|update|rotate-tunnel-token|delete} on the running platform. */
class ClusterCommandTest extends SignedInCliTest {


    @Test
    void aClusterIsRegisteredRotatedAndDeleted() {
        String org = ok("orgs", "create", "clusters").path("id").asText();
        String project = ok("projects", "create", "--org", org, "p").path("id").asText();

        Cli.Run created = cli.run("cluster", "create", "--project", project, "prod", "--description", "EU");
        assertThat(created.status()).as(created.toString()).isZero();
        assertThat(created.out()).containsPattern("tunnelToken +stk_tun_|TUNNEL TOKEN|tunnel token +stk_tun_");
        assertThat(created.err()).contains("shown once");
        JsonNode list = ok("cluster", "list", "--project", project);
        String id = list.path("items").get(0).path("id").asText();
        assertThat(list.path("items").get(0).path("mode").asText()).isEqualTo("relay");
        assertThat(list.toString()).doesNotContain("stk_tun_");

        JsonNode updated = ok("cluster", "update", id, "--api-server-url", "https://k8s.example.com:6443");
        assertThat(updated.path("mode").asText()).isEqualTo("direct");
        assertThat(ok("cluster", "get", id).path("apiServerUrl").asText()).isEqualTo("https://k8s.example.com:6443");

        JsonNode rotated = ok("cluster", "rotate-tunnel-token", id);
        assertThat(rotated.path("tunnelToken").asText()).matches("stk_tun_[0-9A-Za-z]{40}");
        assertThat(created.out()).doesNotContain(rotated.path("tunnelToken").asText());

        ok("cluster", "delete", id);
        Cli.Run gone = cli.run("cluster", "get", id);
        assertThat(gone.status()).isEqualTo(1);
        assertThat(gone.err()).contains("(not_found, HTTP 404)");
    }

    @Test
    void badInputIsReportedAndChangesNothing() throws Exception {
        String org = ok("orgs", "create", "clusters-bad").path("id").asText();
        String project = ok("projects", "create", "--org", org, "p").path("id").asText();
        Cli.Run ftp = cli.run("cluster", "create", "--project", project, "x", "--api-server-url", "ftp://k8s");
        assertThat(ftp.status()).isEqualTo(1);
        assertThat(ftp.err()).contains("(validation_failed, HTTP 400)", "/apiServerUrl");
        Path notPem = dir.resolve("ca.pem");
        Files.writeString(notPem, "not a certificate");
        Cli.Run ca = cli.run("cluster", "create", "--project", project, "x", "--api-server-url", "https://k8s",
                "--ca-file", notPem.toString());
        assertThat(ca.status()).isEqualTo(1);
        assertThat(ca.err()).contains("/caCertificate");
        Cli.Run missing = cli.run("cluster", "create", "--project", project, "x", "--api-server-url", "https://k8s",
                "--ca-file", dir.resolve("nope.pem").toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("--ca-file", "cannot be read");
        Cli.Run nothing = cli.run("cluster", "update", java.util.UUID.randomUUID().toString());
        assertThat(nothing.status()).isEqualTo(2);
        assertThat(ok("cluster", "list", "--project", project).path("items")).isEmpty();
    }
}
