package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.testing.Await;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code stockade sandbox copy} against the running platform and a real bubblewrap sandbox: a tree with a binary
 * file, a nested directory, an executable and an inside link goes in and comes back byte for byte with its modes;
 * archives a sandbox crafts to escape the destination are refused; a stopped or unknown sandbox is reported.
 */
class SandboxCopyCliTest extends SignedInCliTest {
    private String project;
    private String id;

    @BeforeAll
    void sandbox() throws Exception {
        String org = ok("orgs", "create", "copy-cli").path("id").asText();
        project = ok("projects", "create", "--org", org, "app").path("id").asText();
        Path file = Files.writeString(dir.resolve("sandbox.yaml"), "name: copy-box\ncpu: 250m\nmemory: 128Mi\n");
        id = ok("sandbox", "create", "--project", project, "-f", file.toString()).path("id").asText();
        Await.until("the sandbox to run", Await.LONG,
                () -> ok("sandbox", "get", "--project", project, id).path("state").asText().equals("running"));
    }

    private Cli.Run sandbox(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "sandbox";
        all[1] = args[0];
        all[2] = "--project";
        all[3] = project;
        System.arraycopy(args, 1, all, 4, args.length - 1);
        return cli.run(all);
    }

    private String inSandbox(String script) {
        Cli.Run run = sandbox("exec", id, "--", "sh", "-c", script);
        assertThat(run.status()).as(run.toString()).isZero();
        return run.out();
    }

    private Path tree(String name) throws Exception {
        Path root = Files.createDirectories(dir.resolve(name).resolve("nested/deeper"));
        root = dir.resolve(name);
        byte[] binary = new byte[3 << 20]; // several exec frames of every byte value
        new Random(29).nextBytes(binary);
        Files.write(root.resolve("nested/blob.bin"), binary);
        Path tool = Files.writeString(root.resolve("tool.sh"), "#!/bin/sh\necho tool ran\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-x--x"));
        Path secret = Files.writeString(root.resolve("nested/deeper/secret"), "s");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        Files.createSymbolicLink(root.resolve("nested/to-tool"), Path.of("../tool.sh"));
        return root;
    }

    private static void sameTree(Path expected, Path actual) throws Exception {
        for (String f : List.of("nested/blob.bin", "tool.sh", "nested/deeper/secret")) {
            assertThat(Files.readAllBytes(actual.resolve(f))).as(f).isEqualTo(Files.readAllBytes(expected.resolve(f)));
            assertThat(Files.getPosixFilePermissions(actual.resolve(f))).as(f)
                    .isEqualTo(Files.getPosixFilePermissions(expected.resolve(f)));
        }
        assertThat(Files.readSymbolicLink(actual.resolve("nested/to-tool"))).isEqualTo(Path.of("../tool.sh"));
    }

    @Test
    void aTreeGoesInAndComesBackByteForByteWithItsModes() throws Exception {
        Path src = tree("tree-in");
        Cli.Run in = sandbox("copy", src.toString(), id + ":/workspace/");
        assertThat(in.status()).as(in.toString()).isZero();
        assertThat(inSandbox("cd /workspace/tree-in && stat -c '%a %n' tool.sh nested/deeper/secret && ./tool.sh"
                + " && readlink nested/to-tool && sha256sum nested/blob.bin"))
                .contains("751 tool.sh", "600 nested/deeper/secret", "tool ran", "../tool.sh");

        Path out = Files.createDirectory(dir.resolve("out"));
        Cli.Run back = sandbox("copy", id + ":tree-in", out.toString());
        assertThat(back.status()).as(back.toString()).isZero();
        sameTree(src, out.resolve("tree-in"));

        Cli.Run contents = sandbox("copy", id + ":/workspace/tree-in/.", dir.resolve("contents").toString());
        assertThat(contents.status()).as(contents.toString()).isZero();
        sameTree(src, dir.resolve("contents"));

        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        Cli.Run stream = cli.runBytes(tar, "sandbox", "copy", "--project", project, id + ":tree-in", "-");
        assertThat(stream.status()).as(stream.toString()).isZero();
        assertThat(stream.out()).isEmpty(); // no line of text inside the tar stream
        try (TarArchiveInputStream entries = new TarArchiveInputStream(new ByteArrayInputStream(tar.toByteArray()))) {
            TarArchiveEntry e;
            while ((e = entries.getNextEntry()) != null && !e.getName().equals("./tree-in/nested/blob.bin")) {
                assertThat(e.getName()).startsWith("./tree-in");
            }
            assertThat(e).as("the blob's entry").isNotNull();
            assertThat(entries.readAllBytes()).isEqualTo(Files.readAllBytes(src.resolve("nested/blob.bin")));
        }

        Cli.Run renamed = sandbox("copy", id + ":tree-in/tool.sh", dir.resolve("tool-copy.sh").toString());
        assertThat(renamed.status()).as(renamed.toString()).isZero();
        assertThat(dir.resolve("tool-copy.sh")).hasSameBinaryContentAs(src.resolve("tool.sh"));
    }

    @Test
    void aTarStreamOnStandardInputUnpacksIntoASandboxDirectory() throws Exception {
        Path src = Files.createDirectories(dir.resolve("streamed"));
        Files.writeString(src.resolve("hello.txt"), "hello from a pipe\n");
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        TarPacking.pack(src, "streamed", tar, n -> { });
        inSandbox("mkdir -p /workspace/inbox");
        Cli.Run in = cli.run(new ByteArrayInputStream(tar.toByteArray()), "sandbox", "copy", "--project", project,
                "-", id + ":/workspace/inbox");
        assertThat(in.status()).as(in.toString()).isZero();
        assertThat(inSandbox("cat /workspace/inbox/streamed/hello.txt")).isEqualTo("hello from a pipe\n");
    }

    @Test
    void linksOutOfTheDestinationMadeInTheSandboxAreRefused() throws Exception {
        inSandbox("mkdir -p /workspace/evil && ln -sfn /etc /workspace/evil/etc && echo x > /workspace/evil/a");
        Path out = Files.createDirectory(dir.resolve("evil-out"));
        Cli.Run refused = sandbox("copy", id + ":evil", out.toString());
        assertThat(refused.status()).as(refused.toString()).isEqualTo(Exit.USAGE);
        assertThat(refused.err()).contains("`./evil/etc`", "absolute path `/etc`").doesNotContain("Exception");
        assertThat(out.resolve("evil/etc")).doesNotExist();

        inSandbox("rm /workspace/evil/etc && ln -s ../../.. /workspace/evil/up");
        Cli.Run up = sandbox("copy", id + ":evil", dir.resolve("evil-up").toString());
        assertThat(up.status()).as(up.toString()).isEqualTo(Exit.USAGE);
        assertThat(up.err()).contains("`./evil/up`", "outside the destination");
    }

    @Test
    void aSandboxThatAnswersWithDotDotNamesWritesNothingOutside() throws Exception {
        // what a sandbox whose tar was replaced sends: GNU tar -P keeps `../` in the names
        inSandbox("mkdir -p /workspace/m && echo pwned > /workspace/escape.txt && cd /workspace/m"
                + " && tar -cPf /workspace/evil.tar ../escape.txt");
        Path parent = Files.createDirectory(dir.resolve("victim"));
        Path dest = Files.createDirectory(parent.resolve("dest"));
        ApiClient client = new ApiClient(Platform.shared().url, Platform.shared().ownerToken());
        TarTransfer transfer = new TarTransfer(client, "/v1/projects/" + project + "/sandboxes/" + id);
        CopyProgress progress = new CopyProgress(new java.io.PrintWriter(new java.io.StringWriter()), false,
                System::nanoTime);
        assertThatThrownBy(() -> transfer.receive(List.of("cat", "/workspace/evil.tar"),
                new ConfinedExtraction(dest, null, n -> { }), progress))
                .isInstanceOf(Failure.class).hasMessageContaining("`../escape.txt`").hasMessageContaining("climbs out");
        assertThat(parent.resolve("escape.txt")).doesNotExist();
        try (var left = Files.list(dest)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void missingPathsUnknownAndStoppedSandboxesAreReported() throws Exception {
        Cli.Run missing = sandbox("copy", id + ":/workspace/no-such", dir.toString());
        assertThat(missing.status()).as(missing.toString()).isEqualTo(Exit.USAGE);
        assertThat(missing.err()).contains("does not exist in the sandbox");

        Cli.Run local = sandbox("copy", dir.resolve("no-such").toString(), id + ":/workspace/");
        assertThat(local.status()).as(local.toString()).isEqualTo(Exit.USAGE);
        assertThat(local.err()).contains("does not exist");

        Cli.Run unknown = sandbox("copy", dir.toString(), UUID.randomUUID() + ":/workspace/");
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(Exit.REFUSED);
        assertThat(unknown.err()).contains("refused").doesNotContain("Exception");

        Path file = Files.writeString(dir.resolve("stopped.yaml"), "name: stopped-box\ncpu: 250m\nmemory: 128Mi\n");
        String stopped = ok("sandbox", "create", "--project", project, "-f", file.toString()).path("id").asText();
        ok("sandbox", "stop", "--project", project, stopped);
        Cli.Run notRunning = sandbox("copy", dir.toString(), stopped + ":/workspace/");
        assertThat(notRunning.status()).as(notRunning.toString()).isEqualTo(Exit.REFUSED);
        assertThat(notRunning.err()).contains("not running", "stopped");

        Cli.Run textOnly = sandbox("copy", id + ":/workspace", "-");
        assertThat(textOnly.status()).isEqualTo(Exit.USAGE);
        assertThat(textOnly.err()).contains("text only");

        Cli.Run neither = sandbox("copy", "a", "b");
        assertThat(neither.status()).isEqualTo(Exit.USAGE);
        assertThat(neither.err()).contains("SANDBOX_ID:PATH");
    }
}
