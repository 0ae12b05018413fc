package dev.stockade.api.support;

import dev.stockade.testing.NoSilentSkips;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine, each with what to install when it is missing: a local run skips the test and
 * says so; CI fails it ({@link NoSilentSkips}), because {@code .ci/run} installs all of it.
 */
public final class Requires {
    private Requires() {
    }

    /** An executable at {@code path}, from the Debian package {@code debianPackage}. */
    public static void executable(String path, String debianPackage) {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(path)), () -> path + " is missing: install it with"
                + " `apt-get install " + debianPackage + "` (.ci/run does)");
    }

    /** The executable {@code command} first on {@code PATH}, from the Debian package {@code debianPackage}. */
    public static Path onPath(String command, String debianPackage) {
        String path = System.getenv("PATH") == null ? "" : System.getenv("PATH");
        Path found = java.util.Arrays.stream(path.split(java.io.File.pathSeparator)).filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, command)).filter(Files::isExecutable).findFirst().orElse(null);
        Assumptions.assumeTrue(found != null, () -> "`" + command + "` is not on PATH: install it with"
                + " `apt-get install " + debianPackage + "` (.ci/run does)");
        return found;
    }

    /** Bubblewrap, which the local sandbox provisioner runs every sandbox in. */
    public static void bubblewrap() {
        executable("/usr/bin/bwrap", "bubblewrap");
    }

    /** Root: the local provisioner creates bridges and network namespaces. */
    public static void root() {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "this test needs root (the local provisioner creates bridges and namespaces): run it as root, as"
                        + " .ci/run does");
    }

    /** An environment variable {@code name}, with what provides it; returns its value. */
    public static String environment(String name, String provider) {
        String value = System.getenv(name);
        Assumptions.assumeTrue(value != null && !value.isBlank(), () -> name + " is not set: " + provider);
        return value;
    }
}
