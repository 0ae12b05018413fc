package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@code stockade policy impact --org} against the running platform: egress decisions of a real sandbox enter the
 * trail through the replica audit route (as a separate proxy ships them), and the CLI reads them back through the
 * audit API, with the stored login, and replays them under a narrowed candidate.
 */
class ImpactPlatformCliTest extends SignedInCliTest {

    @Test
    void aPlatformsTrailIsReplayedUnderACandidate() throws Exception {
        String org = ok("orgs", "create", "impact-cli").path("id").asText();
        String project = ok("projects", "create", "--org", org, "agents").path("id").asText();
        Path box = Files.writeString(dir.resolve("sandbox.yaml"), """
                name: impact-box
                cpu: 250m
                memory: 128Mi
                policy:
                  name: agent
                  allowedDomains:
                    - {pattern: allowed.test, verdict: allow}
                    - {pattern: other.test, verdict: allow}
                """);
        String sandbox = ok("sandbox", "create", "--project", project, "-f", box.toString()).path("id").asText();
        Path tokenFile = dir.resolve("proxy-token");
        assertThat(cli.run("proxy-tokens", "create", "impact-edge", "--out", tokenFile.toString()).status()).isZero();
        String now = Instant.now().toString();
        String lines = line(now, sandbox, "allowed.test", "/a", "allow", "entry-allow")
                + line(now, sandbox, "other.test", "/b", "allow", "entry-allow")
                + line(now, sandbox, "denied.test", "/c", "deny", "default-deny");
        HttpResponse<String> shipped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(Platform.shared().url + "/v1/egress/audit"))
                .header("Authorization", "Bearer " + Files.readString(tokenFile).strip())
                .header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(lines)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(shipped.statusCode()).as(shipped.body()).isEqualTo(200);
        Await.until("three egress entries", Await.LONG,
                () -> ok("audit", "--org", org, "--kind", "egress").path("items").size() == 3);

        Path narrowed = Files.writeString(dir.resolve("narrowed.yaml"), """
                name: agent
                allowedDomains:
                  - {pattern: allowed.test, verdict: allow}
                """);
        Cli.Run run = cli.run("policy", "impact", narrowed.toString(), "--org", org, "--since", "1h",
                "--format", "json");
        assertThat(run.status()).as(run.toString()).isEqualTo(1);
        JsonNode report = run.json();
        assertThat(report.path("entries").asLong()).isEqualTo(3);
        assertThat(report.path("newlyDenied").asLong()).isEqualTo(1);
        assertThat(report.path("unchanged").asLong()).isEqualTo(2);
        assertThat(report.path("deniedGroups").get(0).path("operation").asText()).isEqualTo("GET /b");
        assertThat(report.path("deniedGroups").get(0).path("sandbox").asText()).isEqualTo(sandbox);

        Cli.Run accepted = cli.run("policy", "impact", narrowed.toString(), "--org", org, "--project", project,
                "--since", "1h", "--accept-breaking");
        assertThat(accepted.status()).as(accepted.toString()).isZero();
        assertThat(accepted.out()).contains("newly denied:   1");
        Cli.Run foreign = cli.run("policy", "impact", narrowed.toString(), "--org",
                "00000000-0000-4000-8000-000000000000", "--since", "1h");
        assertThat(foreign.status()).as(foreign.toString()).isEqualTo(Exit.USAGE);
        assertThat(foreign.err()).contains("HTTP 404");
    }

    private static String line(String time, String sandbox, String host, String path, String verdict, String reason) {
        return "{\"time\":\"" + time + "\",\"listener\":\"http\",\"sandbox\":\"" + sandbox + "\",\"caller\":null,"
                + "\"host\":\"" + host + "\",\"port\":80,\"method\":\"GET\",\"path\":\"" + path + "\",\"verdict\":\""
                + verdict + "\",\"transport\":null,\"policy\":null,\"entry\":-1,\"rule\":-1,\"reason\":\"" + reason
                + "\",\"status\":0,\"bytesIn\":0,\"bytesOut\":0,\"durationMs\":0}\n";
    }
}
