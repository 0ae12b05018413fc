package dev.stockade.cli;

import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ProblemRenderer;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceFiles;
import dev.stockade.policy.model.TerminalText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reading policy files for the commands: through the one bounded reader, problems printed with positions. */
final class PolicyFiles {
    private PolicyFiles() {
    }

    /**
     * Reads and validates one file; when it cannot be read (missing, not a regular file, over 1 MiB, not
     * UTF-8) prints why and returns empty, so that the caller exits 2.
     */
    static Optional<ReadResult> read(Path file, PrintWriter err) {
        SourceFiles.Loaded loaded = SourceFiles.read(file);
        if (loaded instanceof SourceFiles.Unreadable unreadable) {
            err.println("stockade: cannot read " + TerminalText.escape(unreadable.message()));
            return Optional.empty();
        }
        return Optional.of(PolicyReader.read(file.toString(), ((SourceFiles.Text) loaded).text()));
    }

    /**
     * Reads every file; prints the problems of any invalid one (with file, line, column and a caret)
     * and returns empty, so that the caller exits 2 and nothing is decided on a broken policy.
     */
    static Optional<List<Policy>> readValid(List<Path> files, PrintWriter err) {
        return readValidResults(files, err).map(results -> results.stream().map(ReadResult::policy).toList());
    }

    /** As {@link #readValid}, keeping each file's read result (its source map places entries for reports). */
    static Optional<List<ReadResult>> readValidResults(List<Path> files, PrintWriter err) {
        List<ReadResult> policies = new ArrayList<>();
        boolean ok = true;
        for (Path file : files == null ? List.<Path>of() : files) {
            Optional<ReadResult> read = read(file, err);
            if (read.isPresent() && read.get().valid()) {
                policies.add(read.get());
            } else {
                read.ifPresent(r -> err.print(ProblemRenderer.human(r.problems(), r.sourceName(), r.text())));
                ok = false;
            }
        }
        err.flush();
        return ok ? Optional.of(policies) : Optional.empty();
    }
}
