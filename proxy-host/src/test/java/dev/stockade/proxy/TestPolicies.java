package dev.stockade.proxy;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Real policies for the tests: YAML written to a file, read, resolved and compiled by the core. */
final class TestPolicies {
    private TestPolicies() {
    }

    /** Compiles {@code yaml} (one policy) into the proxy's decider; fails the test if it is invalid. */
    static PolicySource compile(Path dir, String name, String yaml) {
        try {
            Path file = dir.resolve(name + ".yaml");
            Files.writeString(file, yaml);
            PolicySource source = PolicySource.load(List.of(file), List.of(),
                    new PrintStream(PrintStream.nullOutputStream(), true, StandardCharsets.UTF_8));
            if (!source.lastLoad().valid()) {
                throw new AssertionError("test policy is invalid: " + source.lastLoad().problems());
            }
            return source;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
