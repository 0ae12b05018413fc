package dev.stockade.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A benchmark's scratch directory (a platform's data, its database), removed when the benchmark is done. */
public final class Scratch {
    private Scratch() {
    }

    /** Removes {@code dir} and everything in it. */
    public static void remove(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
