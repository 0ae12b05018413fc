package dev.stockade.deploy;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.Assumptions;

/**
 * An unpacked image run the way a container runtime runs it, without a daemon: bubblewrap makes the image's root file
 * system the process's root (fresh /proc, /dev, /tmp; the host's network), setpriv drops to the image's user, and
 * the image's entrypoint, environment and working directory are used as the configuration says, with the chart's
 * kind of arguments appended. The data directory is a host directory owned by that user, like the chart's volume.
 */
final class ImageContainer implements AutoCloseable {
    private final Process process;
    private final Path log;

    private ImageContainer(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code config}'s entrypoint in {@code rootfs} with {@code args}; {@code data} becomes /data. A read-only
     * root is what the chart's {@code readOnlyRootFilesystem: true} gives the platform and the proxy.
     */
    static ImageContainer start(Path rootfs, boolean readOnlyRoot, ImageArchive.ImageConfig config, Path data,
            List<String> args, Path log) throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/bwrap")), "no bubblewrap: apt-get install bubblewrap");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "running an image as its user needs root (setpriv), as .ci/run runs");
        int[] ids = config.uidGid();
        Files.setAttribute(data, "unix:uid", ids[0]);
        Files.setAttribute(data, "unix:gid", ids[1]);
        List<String> command = new ArrayList<>(List.of("bwrap", readOnlyRoot ? "--ro-bind" : "--bind", rootfs.toString(), "/",
                "--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/dev/shm",
                "--perms", "1777", "--tmpfs", "/tmp", "--bind", data.toString(), "/data",
                "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--clearenv",
                "--chdir", config.workingDir().isEmpty() ? "/" : config.workingDir()));
        for (String pair : config.env()) {
            int eq = pair.indexOf('=');
            command.addAll(List.of("--setenv", pair.substring(0, eq), pair.substring(eq + 1)));
        }
        // the image's own setpriv (util-linux is Essential in Debian) drops root before the entrypoint runs
        command.addAll(List.of("--", "setpriv", "--reuid=" + ids[0], "--regid=" + ids[1], "--clear-groups",
                "--no-new-privs", "--"));
        command.addAll(config.entrypoint());
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ImageContainer(p, log);
    }

    /** Waits, up to {@code bound}, for {@code url} to answer 200; fails early, with the output, if the process ends. */
    void awaitHealthy(URI url, Duration bound) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try {
            await().atMost(bound).pollInterval(Duration.ofMillis(250))
                    .failFast("the container exited", () -> !process.isAlive())
                    .until(() -> status(client, url) == 200);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            throw new AssertionError("GET " + url + " did not answer 200 within " + bound + " ("
                    + e.getMessage() + "); the container's output: " + output(), e);
        }
    }

    /** What the process printed so far (its log file), for failure messages. */
    String output() {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** The user the container's main process runs as, from /proc of the process bubblewrap started. */
    long processUid() throws IOException {
        return process.descendants().filter(h -> h.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .findFirst()
                .map(h -> uidOf(h.pid()))
                .orElseThrow(() -> new IllegalStateException("no java process under the container: " + output()));
    }

    private static long uidOf(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.split("\\s+")[1]);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/" + pid + "/status", e);
        }
        throw new IllegalStateException("no Uid line for " + pid);
    }

    private static int status(HttpClient client, URI url) {
        try {
            HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).GET().build();
            return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
