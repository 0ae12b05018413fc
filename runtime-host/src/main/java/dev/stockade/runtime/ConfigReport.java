package dev.stockade.runtime;

import dev.stockade.runtime.config.Redaction;
import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.runtime.config.Settings;
import dev.stockade.runtime.config.VoiceEndpoint;
import java.io.PrintStream;

/**
 * Prints the resolved configuration with where each value came from: secrets as a fixed marker, and the user
 * information of every URL (settings, derived endpoints, problems) redacted.
 */
final class ConfigReport {
    private ConfigReport() {
    }

    static void print(RuntimeConfig cfg, PrintStream out) {
        String group = null;
        for (Settings.Setting s : cfg.settings().all()) {
            if (!s.variable().group().equals(group)) {
                group = s.variable().group();
                out.println();
                out.println("# " + group);
            }
            out.printf("%-44s %-40s %s%n", s.variable().name(), s.display(), s.source());
        }
        out.println();
        out.println("# Resolved");
        out.println("provider                                     " + cfg.provider().wire()
                + (cfg.endpoints().routed() ? " (routed through PLATFORM_API_URL)" : " (direct)"));
        out.println("chat endpoint                                " + orNone(Redaction.urls(cfg.endpoints().chatBase())));
        out.println("database file                                " + cfg.databaseFile());
        VoiceEndpoint v = cfg.voice();
        out.println("voice                                        " + (v.available()
                ? Redaction.urls(v.url()) + " (step " + v.step() + " of 3)" : "no realtime credential: meeting tools off"));
        for (String w : cfg.warnings()) {
            out.println("warning: " + Redaction.urls(w));
        }
        for (String p : cfg.problems()) {
            out.println("error: " + Redaction.urls(p));
        }
    }

    private static String orNone(String s) {
        return s == null ? "(none)" : s;
    }
}
