package dev.stockade.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The smallest heap ({@code -Xmx}) each command completes in, found by running the CLI in fresh JVMs from a heap
 * that suffices down the steps until one fails: the memory high-water a user has to grant, which a heap reading
 * in a warm, shared JVM cannot give.
 */
final class HeapFloor {
    private static final int[] STEPS_MB = {256, 128, 64, 32, 16};
    private static final long TIMEOUT_S = 180;

    /** A CLI command line and the exit status that means it completed. */
    record Command(int status, String... args) {
    }

    private HeapFloor() {
    }

    static void report(Map<String, Command> commands) throws IOException, InterruptedException {
        System.out.println();
        System.out.println("| command | -Xmx | exit | wall ms | load |");
        System.out.println("|---|---|---|---|---|");
        for (Map.Entry<String, Command> c : commands.entrySet()) {
            for (int mb : STEPS_MB) {
                if (!run(c.getKey(), c.getValue(), mb)) {
                    break;
                }
            }
        }
    }

    /** Whether the command completed in {@code mb} of heap; prints the row either way. */
    private static boolean run(String name, Command c, int mb) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> line = new ArrayList<>(List.of(java, "-Xmx" + mb + "m", "-cp",
                System.getProperty("java.class.path"), "dev.stockade.cli.Stockade"));
        line.addAll(List.of(c.args()));
        String load = HeapWatch.load();
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(line).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        // the CLI's own one-line message (say, out of memory) is small: read whole once the process ends
        boolean ended = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        String exit = ended ? String.valueOf(p.exitValue()) : "timeout";
        boolean ok = ended && p.exitValue() == c.status();
        String said = ended ? new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip() : "";
        System.out.printf(Locale.ROOT, "| %s | %d MB | %s%s | %.0f | %s |%n", name, mb, exit,
                ok ? "" : " (failed: " + said.lines().findFirst().orElse("") + ")", ms, load);
        return ok;
    }
}
