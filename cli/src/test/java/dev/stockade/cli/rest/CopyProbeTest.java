package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe {@code sandbox copy} runs in a sandbox before any tar, run here by a real {@code /bin/sh}: one answer per
 * kind of path, and {@code NO_TAR} when no {@code tar} is on the PATH (a sandbox image without it, which the local
 * sandboxes, sharing this machine's /usr, cannot show).
 */
class CopyProbeTest {
    @TempDir
    Path dir;

    private String probe(String path, String pathVariable) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", TarTransfer.PROBE, "sh", path).directory(dir.toFile());
        pb.environment().put("PATH", pathVariable);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        return out;
    }

    @Test
    void theProbeNamesWhatIsAtThePath() throws Exception {
        Files.createDirectory(dir.resolve("d"));
        Files.writeString(dir.resolve("f"), "x");
        Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("gone"));
        String path = "/usr/bin:/bin";
        assertThat(probe("d", path)).isEqualTo(TarTransfer.RemoteKind.DIRECTORY.name());
        assertThat(probe(dir.resolve("f").toString(), path)).isEqualTo("FILE");
        assertThat(probe("dangling", path)).isEqualTo("FILE");
        assertThat(probe("d/new", path)).isEqualTo("ABSENT");
        assertThat(probe("no/such/dir", path)).isEqualTo("NO_PARENT");
        assertThat(probe("-n", path)).isEqualTo("ABSENT"); // a name like an option stays a name
    }

    @Test
    void aSandboxWithoutTarSaysSo() throws Exception {
        Path bin = Files.createDirectory(dir.resolve("bin-without-tar"));
        Files.createSymbolicLink(bin.resolve("dirname"), Path.of("/usr/bin/dirname"));
        assertThat(probe("d", bin.toString())).isEqualTo("NO_TAR");
        assertThat(probe("d", "/usr/bin:/bin")).isNotEqualTo("NO_TAR");
    }
}
