package dev.stockade.cli;

import dev.stockade.cli.rest.AuditWindow;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.RecordedDecision;
import dev.stockade.policy.impact.ReplayCapExceeded;
import dev.stockade.policy.impact.TrailEntries;
import dev.stockade.policy.impact.TrailStream;
import dev.stockade.policy.model.TerminalText;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The recorded trail a replay reads ({@code policy impact}, {@code policy suggest}): an exported file
 * ({@code --audit}) or a running platform's window ({@link AuditWindow}), exactly one of them, each decision handed
 * on as it is read so that a large window is never held whole.
 */
final class RecordedTrail {
    private RecordedTrail() {
    }

    /** Whether exactly one source is named; if not, says so (a usage error, checked before anything is read). */
    static boolean oneSource(Path audit, AuditWindow window, PrintWriter err) {
        if ((audit == null) == !window.named()) {
            err.println("stockade: give the trail with --audit FILE or a platform's with --org and --since (one)");
            return false;
        }
        return true;
    }

    /**
     * Feeds every recorded decision of the trail ({@link #oneSource} checked) to {@code sink}; the exit status: 0, or
     * 2 after printing why (an unreadable file, a cap exceeded, the platform unreachable or refusing).
     */
    static int feed(Path audit, AuditWindow window, ImpactLimits limits, Consumer<RecordedDecision> sink,
                    PrintWriter err) {
        try {
            return audit != null ? file(audit, sink, err)
                    : window.stream(limits.maxWindow(), entry -> sink.accept(TrailEntries.read(entry)));
        } catch (ReplayCapExceeded e) {
            err.println("stockade: " + e.getMessage());
            return 2;
        }
    }

    private static int file(Path audit, Consumer<RecordedDecision> sink, PrintWriter err) {
        String shown = TerminalText.escape(audit.toString());
        if (!Files.isRegularFile(audit)) {
            err.println("stockade: cannot read " + shown + ": not a regular file");
            return 2;
        }
        try (InputStream in = Files.newInputStream(audit)) {
            TrailStream.read(in, sink);
            return 0;
        } catch (IOException e) {
            err.println("stockade: cannot read " + shown + ": " + TerminalText.escape(String.valueOf(e.getMessage())));
        } catch (TrailStream.TrailFormatException e) {
            err.println("stockade: " + shown + ": " + TerminalText.escape(e.getMessage()));
        }
        return 2;
    }
}
