package dev.stockade.cli.format;

import dev.stockade.policy.model.Problem;
import java.util.List;

/** What formatting one policy file gave: its canonical text, or why the file is left as it is. */
public sealed interface FormatOutcome {

    /** The canonical text of the file; {@link #changed()} when it differs from the text read. */
    record Formatted(String text, boolean changed) implements FormatOutcome {
    }

    /** The file is not formatted (it does not parse, or formatting could not keep it whole); never empty. */
    record Refused(List<Problem> problems) implements FormatOutcome {
        public Refused {
            problems = List.copyOf(problems);
        }
    }
}
