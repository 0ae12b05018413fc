package dev.stockade.cli;

import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ProblemRenderer;
import dev.stockade.policy.model.ReadResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reading policy files for the commands that need valid policies (describe, eval, effective). */
final class PolicyFiles {
    private PolicyFiles() {
    }

    /** Reads and validates one file; unreadable files are an {@link IOException}. */
    static ReadResult read(Path file) throws IOException {
        return PolicyReader.read(file.toString(), Files.readString(file));
    }

    /**
     * Reads every file; prints the problems of any invalid one (with file, line, column and a caret)
     * and returns empty, so that the caller exits 2 and nothing is decided on a broken policy.
     */
    static Optional<List<Policy>> readValid(List<Path> files, PrintWriter err) {
        List<Policy> policies = new ArrayList<>();
        boolean ok = true;
        for (Path file : files == null ? List.<Path>of() : files) {
            try {
                ReadResult read = read(file);
                if (read.valid()) {
                    policies.add(read.policy());
                } else {
                    err.print(ProblemRenderer.human(read.problems(), read.sourceName(), read.text()));
                    ok = false;
                }
            } catch (IOException e) {
                err.println("stockade: cannot read " + file + ": " + e.getMessage());
                ok = false;
            }
        }
        err.flush();
        return ok ? Optional.of(policies) : Optional.empty();
    }
}
