package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Signing in, the stored login, what overrides it, and the exit statuses, against the running platform. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LoginTest {
    private Platform platform;

    @TempDir
    Path dir;

    @BeforeAll
    void start() throws Exception {
        platform = Platform.shared();
    }

    private Cli.Run login(Cli cli) {
        return cli.run("login", "--url", platform.url.toString(), "--token-file", platform.ownerTokenFile().toString());
    }

    @Test
    void loginStoresTheLoginOwnerOnlyAndWhoamiUsesIt() throws Exception {
        Cli cli = new Cli(dir);
        Cli.Run login = login(cli);
        assertThat(login.status()).as(login.toString()).isZero();
        assertThat(login.out()).contains("installation-owner", "signed in to " + platform.url);
        assertThat(login.out() + login.err()).doesNotContain(platform.ownerToken());

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cli.credentials())))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cli.credentials().getParent())))
                .isEqualTo("rwx------");
        JsonNode stored = new com.fasterxml.jackson.databind.ObjectMapper().readTree(cli.credentials().toFile());
        assertThat(stored.path("url").asText()).isEqualTo(platform.url.toString());
        assertThat(stored.path("token").asText()).isEqualTo(platform.ownerToken());

        Cli.Run whoami = cli.run("whoami");
        assertThat(whoami.status()).as(whoami.toString()).isZero();
        assertThat(whoami.out()).contains("type", "installation-owner").doesNotContain(platform.ownerToken());
        Cli.Run json = cli.run("whoami", "--format", "json");
        assertThat(json.status()).isZero();
        assertThat(json.json().path("type").asText()).isEqualTo("installation-owner");

        Cli.Run logout = cli.run("logout");
        assertThat(logout.status()).isZero();
        assertThat(cli.credentials()).doesNotExist();
        Cli.Run after = cli.run("whoami");
        assertThat(after.status()).isEqualTo(Exit.USAGE);
        assertThat(after.err()).contains("not signed in", "stockade login");
    }

    @Test
    void aTokenAndAPolicyReadFromStandardInput() throws Exception {
        Cli cli = new Cli(dir);
        Cli.Run login = cli.run(new java.io.ByteArrayInputStream((platform.ownerToken() + "\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)), "login", "--url", platform.url.toString(),
                "--token-file", "-");
        assertThat(login.status()).as(login.toString()).isZero();
        String org = cli.run("orgs", "create", "stdin-org", "--format", "id").out().strip();
        Cli.Run created = cli.run(new java.io.ByteArrayInputStream("""
                name: from-stdin
                allowedDomains:
                  - pattern: example.com
                    verdict: allow
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "policies", "create", "--org", org, "-f", "-",
                "--format", "json");
        assertThat(created.status()).as(created.toString()).isZero();
        assertThat(created.json().path("name").asText()).isEqualTo("from-stdin");
    }

    @Test
    void aTokenThePlatformRefusesIsNotStored() throws Exception {
        Cli cli = new Cli(dir);
        Path bogus = Files.writeString(dir.resolve("bogus"), "stk_api_notARealToken\n");
        Cli.Run run = cli.run("login", "--url", platform.url.toString(), "--token-file", bogus.toString());
        assertThat(run.status()).as(run.toString()).isEqualTo(Exit.REFUSED);
        assertThat(run.err()).contains("(unauthenticated, HTTP 401)").doesNotContain("stk_api_notARealToken");
        assertThat(cli.credentials()).doesNotExist();
    }

    @Test
    void anUnreadableTokenFileIsAUsageError() {
        Cli cli = new Cli(dir);
        Path missing = dir.resolve("nope");
        Cli.Run run = cli.run("login", "--url", platform.url.toString(), "--token-file", missing.toString());
        assertThat(run.status()).isEqualTo(Exit.USAGE);
        assertThat(run.err()).isEqualTo("stockade: cannot read the token file " + missing + ": no such file\n");
        assertThat(cli.credentials()).doesNotExist();
    }

    @Test
    void flagsAndEnvironmentOverrideTheStoredLogin() throws Exception {
        Cli owner = new Cli(dir);
        assertThat(login(owner).status()).isZero();
        String org = owner.run("orgs", "create", "overrides", "--format", "json").json().path("id").asText();
        String apiToken = owner.run("tokens", "create", "--org", org, "ci", "--format", "json").json()
                .path("token").asText();
        assertThat(apiToken).startsWith("stk_");

        Cli.Run viaEnv = new Cli(dir).with("STOCKADE_TOKEN", apiToken).run("whoami", "--format", "json");
        assertThat(viaEnv.json().path("type").asText()).as(viaEnv.toString()).isEqualTo("api-token");
        Cli.Run viaFlag = new Cli(dir).with("STOCKADE_TOKEN", "stk_api_wrong")
                .run("whoami", "--token", platform.ownerToken(), "--format", "json");
        assertThat(viaFlag.json().path("type").asText()).isEqualTo("installation-owner");

        // Nothing stored: the URL and the token both come from the environment.
        Cli.Run bare = new Cli(dir.resolve("elsewhere")).with("STOCKADE_URL", platform.url.toString())
                .with("STOCKADE_TOKEN", apiToken).run("orgs", "list", "--format", "json");
        assertThat(bare.status()).as(bare.toString()).isZero();
        assertThat(bare.json().path("items").get(0).path("id").asText()).isEqualTo(org);
    }

    @Test
    void theStoredTokenIsNotSentToAnotherUrl() throws Exception {
        Cli cli = new Cli(dir);
        assertThat(login(cli).status()).isZero();
        HttpServer other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        StringBuilder seen = new StringBuilder();
        other.createContext("/", ex -> {
            seen.append(ex.getRequestHeaders().getFirst("Authorization"));
            ex.sendResponseHeaders(500, -1);
            ex.close();
        });
        other.start();
        try {
            Cli.Run run = cli.run("whoami", "--url", "http://127.0.0.1:" + other.getAddress().getPort());
            assertThat(run.status()).isEqualTo(Exit.USAGE);
            assertThat(run.err()).contains("the stored login is for " + platform.url);
            assertThat(seen).isEmpty();
        } finally {
            other.stop(0);
        }
    }

    @Test
    void exitStatuses() throws Exception {
        Cli cli = new Cli(dir);
        assertThat(cli.run("orgs", "list", "--no-such-option").status()).isEqualTo(Exit.USAGE);
        assertThat(cli.run("orgs").status()).isEqualTo(Exit.USAGE);
        assertThat(cli.run("orgs", "list").status()).isEqualTo(Exit.USAGE); // not signed in

        Cli.Run unreachable = cli.run("installation", "status", "--url", "http://127.0.0.1:" + Platform.freePort());
        assertThat(unreachable.status()).isEqualTo(Exit.USAGE);
        assertThat(unreachable.err()).startsWith("stockade: cannot reach the platform at http://127.0.0.1:");

        HttpServer notPlatform = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        notPlatform.createContext("/", ex -> {
            byte[] page = "<html>hello</html>".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/html");
            ex.sendResponseHeaders(200, page.length);
            ex.getResponseBody().write(page);
            ex.close();
        });
        notPlatform.start();
        try {
            Cli.Run other = cli.run("installation", "status", "--url", "http://127.0.0.1:"
                    + notPlatform.getAddress().getPort());
            assertThat(other.status()).isEqualTo(Exit.UNEXPECTED);
            assertThat(other.err()).contains("not JSON", "is this the Stockade platform?");
        } finally {
            notPlatform.stop(0);
        }

        Cli.Run installation = cli.run("installation", "status", "--url", platform.url.toString());
        assertThat(installation.status()).as(installation.toString()).isZero();
        assertThat(installation.out()).contains("enrolled    true", "dev_hub     true");
        Cli.Run refused = cli.run("whoami", "--url", platform.url.toString(), "--token", "stk_api_nope");
        assertThat(refused.status()).isEqualTo(Exit.REFUSED);
        assertThat(cli.run("orgs", "list", "--url", "ftp://example").status()).isEqualTo(Exit.USAGE);
    }
}
