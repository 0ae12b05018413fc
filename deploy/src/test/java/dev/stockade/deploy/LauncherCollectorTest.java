package dev.stockade.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The launcher gives the platform and the proxy the collector their images use (docs/proxy.md, "Memory and the
 * collector"): ZGC, unless {@code STOCKADE_JAVA_OPTS} names one. Read from the JVM itself
 * ({@code -XX:+PrintCommandLineFlags}), on the jars the build made (the launcher builds them when they are missing).
 */
class LauncherCollectorTest {
    private static final Path LAUNCHER = Path.of("..", "stockade").toAbsolutePath().normalize();

    @Test
    void thePlatformAndTheProxyRunOnZgc() throws Exception {
        for (String host : List.of("serve", "proxy")) {
            String flags = flags(host, "-XX:+PrintCommandLineFlags");
            assertThat(flags).as(host).contains("-XX:+UseZGC").doesNotContain("-XX:+UseG1GC");
        }
    }

    @Test
    void aCollectorNamedInStockadeJavaOptsIsTheOneUsed() throws Exception {
        for (String host : List.of("serve", "proxy")) {
            String flags = flags(host, "-XX:+UseG1GC -XX:+PrintCommandLineFlags");
            assertThat(flags).as(host).contains("-XX:+UseG1GC").doesNotContain("-XX:+UseZGC");
        }
    }

    @Test
    void theCliKeepsTheJvmsDefault() throws Exception {
        assertThat(flags(null, "-XX:+PrintCommandLineFlags")).contains("-XX:+PrintCommandLineFlags")
                .doesNotContain("-XX:+UseZGC");
    }

    /** The flag line the JVM prints first when the launcher runs {@code host --version} (null: the CLI's). */
    private static String flags(String host, String javaOptions) throws IOException, InterruptedException {
        List<String> command = host == null ? List.of(LAUNCHER.toString(), "--version")
                : List.of(LAUNCHER.toString(), host, "--version");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("STOCKADE_JAVA_OPTS", javaOptions);
        pb.environment().put("STOCKADE_CDS", "off"); // a --version run records no archive anyway
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the launcher ends").isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().filter(l -> l.contains("-XX:")).findFirst().orElse("");
    }
}
