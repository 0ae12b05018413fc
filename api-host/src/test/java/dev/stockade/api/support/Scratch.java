package dev.stockade.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;

/**
 * Temporary directories for fixtures that outlive a test (a platform per class, the JVM's database), removed when
 * the test JVM exits; JUnit's {@code @TempDir} covers the rest. Before this, every run left its data directories in
 * {@code /tmp} (the embedded database's alone is about 0.8 GB).
 */
public final class Scratch {
    private static final Queue<Path> DIRS = new ConcurrentLinkedQueue<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> DIRS.forEach(Scratch::remove), "scratch-cleanup"));
    }

    private Scratch() {
    }

    /** A new directory under the system's temporary directory, removed at exit. */
    public static Path directory(String prefix) {
        Path dir = unmanaged(prefix);
        DIRS.add(dir);
        return dir;
    }

    /** A new directory the caller removes with {@link #remove} (when the order of shutdown work matters). */
    public static Path unmanaged(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes {@code dir} and everything in it; what cannot be removed stays (a leftover is harmless). */
    public static void remove(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a file vanished or is unreadable mid-walk: what is left stays
        }
    }
}
