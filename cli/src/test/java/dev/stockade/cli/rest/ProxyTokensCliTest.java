package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Proxy tokens through the CLI, and a separate proxy replica started as {@code stockade-proxy --platform} with the
 * token file the CLI wrote: it follows the real platform's feed until it is in sync.
 */
class ProxyTokensCliTest extends SignedInCliTest {

    @Test
    void createWritesTheTokenFileAReplicaFollowsThePlatformWithIt() throws Exception {
        Path file = dir.resolve("proxy-token");
        Cli.Run created = cli.run("proxy-tokens", "create", "edge-1", "--out", file.toString());
        assertThat(created.status()).as(created.toString()).isZero();
        String token = Files.readString(file).strip();
        assertThat(token).startsWith("stk_pxy_");
        assertThat(created.toString()).doesNotContain(token).contains(file.toString());
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        Cli.Run again = cli.run("proxy-tokens", "create", "edge-2", "--out", file.toString());
        assertThat(again.status()).isEqualTo(2);
        assertThat(again.toString()).contains("exists");

        Cli.Run list = cli.run("proxy-tokens", "list");
        assertThat(list.status()).isZero();
        assertThat(list.toString()).contains("edge-1").doesNotContain("edge-2").doesNotContain(token);

        Process proxy = new ProcessBuilder("java", "-jar", System.getProperty("stockade.proxyJar"), "--platform",
                Platform.shared().url.toString(), "--platform-token-file", file.toString(), "--port", "0",
                "--data-dir", dir.resolve("proxy").toString()).redirectErrorStream(true).start();
        try {
            CompletableFuture<String> synced = CompletableFuture.supplyAsync(() -> {
                StringBuilder seen = new StringBuilder();
                try (BufferedReader in = new BufferedReader(new InputStreamReader(proxy.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        seen.append(line).append('\n');
                        if (line.contains("control plane: in sync at version")) {
                            return seen.toString();
                        }
                    }
                } catch (java.io.IOException e) {
                    seen.append(e);
                }
                return seen.toString();
            });
            String out = synced.get(60, TimeUnit.SECONDS);
            assertThat(out).contains("following the platform at").contains("in sync at version")
                    .doesNotContain(token);
        } finally {
            proxy.destroy();
            proxy.waitFor(10, TimeUnit.SECONDS);
        }

        String id = ok("proxy-tokens", "list").path("items").get(0).path("id").asText();
        Cli.Run revoked = cli.run("proxy-tokens", "revoke", id);
        assertThat(revoked.status()).as(revoked.toString()).isZero();
        assertThat(ok("proxy-tokens", "list").path("items").get(0).path("revokedAt").isNull()).isFalse();
    }
}
