package dev.stockade.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.cli.Stockade;
import dev.stockade.policy.impact.TrailStream;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.PolicyWriter;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Whole-operation times of {@code policy fmt} on a 10,000-entry policy and {@code policy suggest} and
 * {@code policy impact} on a 1,000,000-entry trail (issue 29), each through the CLI's own entry point, beside the
 * baselines in the same rounds: reading the same trail alone, reading the same policy alone. Operations alternate
 * within each round so that load from other builds falls on all of them; every round prints the load average.
 * Then the smallest heap each command completes in, from fresh JVMs ({@link HeapFloor}).
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.PolicyToolsAtScale [rounds] [warm-up rounds]</pre>
 */
public final class PolicyToolsAtScale {
    static final int TRAIL_ENTRIES = 1_000_000;
    static final int POLICY_ENTRIES = 10_000;

    /** One timed operation: its name and the run that throws unless the answer is the expected one. */
    private record Operation(String name, HeapWatch.Step step) {
    }

    private PolicyToolsAtScale() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        Path dir = Files.createTempDirectory("stockade-scale");
        try {
            Inputs in = Inputs.write(dir);
            System.out.printf(Locale.ROOT, "# %s; trail %,d entries, %,d bytes; policy %,d entries, %,d chars%n",
                    Runtime.version(), TRAIL_ENTRIES, Files.size(in.trail), POLICY_ENTRIES, in.policyText.length());
            System.out.println("# the trail holds " + in.expected + "; unchanged " + in.expected.unchanged());
            List<Operation> ops = operations(in);
            Map<String, List<HeapWatch.Sample>> samples = new LinkedHashMap<>();
            for (int r = 1; r <= warmUp + rounds; r++) {
                for (Operation op : ops) {
                    HeapWatch.Sample s = HeapWatch.time(op.step);
                    System.out.printf(Locale.ROOT, "%s round %d %-30s wall %7.0f ms  cpu %7.0f ms  live after GC max %4d"
                            + " MB  load %s%n", r <= warmUp ? "warm-up" : "timed", r, op.name, s.millis(), s.cpuMillis(),
                            s.liveMb(), s.load());
                    if (r > warmUp) {
                        samples.computeIfAbsent(op.name, k -> new ArrayList<>()).add(s);
                    }
                }
            }
            summary(samples);
            if (!Boolean.getBoolean("skipHeapFloor")) {
                HeapFloor.report(in.commands());
            }
        } finally {
            Scratch.remove(dir);
        }
    }

    /** The generated files and what the trail holds. */
    private record Inputs(Path trail, RecordedTraffic.Expected expected, Path candidate, Path policy,
            String policyText, Path anchored, Path suggested) {
        static Inputs write(Path dir) throws Exception {
            RecordedTraffic traffic = new RecordedTraffic(100);
            Path trail = dir.resolve("trail.json");
            RecordedTraffic.Expected expected = traffic.write(trail, TRAIL_ENTRIES);
            Path candidate = Files.writeString(dir.resolve("candidate.yaml"), PolicyWriter.toYaml(traffic.candidate()));
            String text = LargePolicyText.of(POLICY_ENTRIES, false);
            Path policy = Files.writeString(dir.resolve("fleet.yaml"), text);
            Path anchored = Files.writeString(dir.resolve("anchored.yaml"), LargePolicyText.of(POLICY_ENTRIES, true));
            return new Inputs(trail, expected, candidate, policy, text, anchored, dir.resolve("suggested.yaml"));
        }

        /** The command lines timed here, for the heap floor's fresh JVMs, with the exit status each must give. */
        Map<String, HeapFloor.Command> commands() {
            Map<String, HeapFloor.Command> out = new LinkedHashMap<>();
            out.put("fmt", new HeapFloor.Command(0, "policy", "fmt", policy.toString()));
            out.put("suggest", new HeapFloor.Command(0, "policy", "suggest", "--audit", trail.toString(), "-o",
                    suggested.toString()));
            out.put("impact", new HeapFloor.Command(1, "policy", "impact", candidate.toString(), "--audit",
                    trail.toString(), "--format", "json"));
            return out;
        }
    }

    private static List<Operation> operations(Inputs in) {
        return List.of(
                new Operation("read trail (baseline)", () -> readTrail(in)),
                new Operation("policy suggest", () -> suggest(in)),
                new Operation("policy impact --format json", () -> impact(in)),
                new Operation("read policy (baseline)", () -> readPolicy(in)),
                new Operation("policy fmt", () -> fmt(in)),
                new Operation("policy fmt, anchors (refused)", () -> fmtAnchored(in)));
    }

    private static void readTrail(Inputs in) throws Exception {
        long[] n = {0};
        try (InputStream stream = Files.newInputStream(in.trail)) {
            TrailStream.read(stream, r -> n[0]++);
        }
        expect(n[0] == TRAIL_ENTRIES, "read " + n[0] + " entries");
    }

    private static void suggest(Inputs in) throws Exception {
        Files.deleteIfExists(in.suggested);
        Cli run = Cli.run("policy", "suggest", "--audit", in.trail.toString(), "-o", in.suggested.toString());
        expect(run.status == 0 && run.err.isEmpty(), run.toString());
        expect(PolicyReader.read("suggested.yaml", Files.readString(in.suggested)).valid(), "suggestion invalid");
    }

    private static void impact(Inputs in) throws Exception {
        Cli run = Cli.run("policy", "impact", in.candidate.toString(), "--audit", in.trail.toString(),
                "--format", "json");
        JsonNode report = new ObjectMapper().readTree(run.out);
        RecordedTraffic.Expected e = in.expected;
        expect(run.status == 1 && report.path("entries").asLong() == e.entries()
                && report.path("newlyDenied").asLong() == e.newlyDenied()
                && report.path("newlyAllowed").asLong() == e.newlyAllowed()
                && report.path("notReplayable").asLong() == e.notReplayable(), "impact: " + run.status + " "
                + report.path("entries") + " " + report.path("newlyDenied") + " " + report.path("newlyAllowed")
                + "; the trail holds " + e);
    }

    private static void readPolicy(Inputs in) {
        var read = PolicyReader.read(in.policy.toString(), in.policyText);
        expect(read.valid() && read.policy().domains().size() == POLICY_ENTRIES, "read " + read.problems());
    }

    private static void fmt(Inputs in) {
        Cli run = Cli.run("policy", "fmt", in.policy.toString());
        // formatted: the same policy, every comment kept (the formatter checks that itself), canonical indentation
        boolean same = PolicyReader.read("formatted.yaml", run.out).policy().equals(
                PolicyReader.read("fleet.yaml", in.policyText).policy());
        expect(run.status == 0 && same && run.out.contains("\n  - pattern: svc1.tenant1.example.com\n"),
                "fmt: " + run.status + " " + run.err);
    }

    private static void fmtAnchored(Inputs in) {
        Cli run = Cli.run("policy", "fmt", in.anchored.toString());
        expect(run.status == 2 && run.err.contains("yaml anchor") && run.out.isEmpty(), "fmt anchors: " + run);
    }

    private static void expect(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("unexpected result: " + what);
        }
    }

    /** One CLI run in this JVM: its status and what it printed. */
    private record Cli(int status, String out, String err) {
        static Cli run(String... args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int status = Stockade.run(new PrintWriter(out), new PrintWriter(err), Map.of(), args);
            return new Cli(status, out.toString(), err.toString());
        }

        @Override
        public String toString() {
            return "exit " + status + ", err " + err.strip();
        }
    }

    private static void summary(Map<String, List<HeapWatch.Sample>> samples) {
        System.out.println();
        System.out.println("| operation | wall median ms | min-max | CPU median ms | min-max | live after GC max MB"
                + " | load (1 min) |");
        System.out.println("|---|---|---|---|---|---|---|");
        samples.forEach((name, list) -> {
            double[] ms = list.stream().mapToDouble(HeapWatch.Sample::millis).sorted().toArray();
            double[] cpu = list.stream().mapToDouble(HeapWatch.Sample::cpuMillis).sorted().toArray();
            long live = list.stream().mapToLong(HeapWatch.Sample::liveMb).max().orElse(0);
            String loads = list.stream().map(HeapWatch.Sample::load).collect(Collectors.joining(", "));
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f-%.0f | %.0f | %.0f-%.0f | %d | %s |%n", name, median(ms),
                    ms[0], ms[ms.length - 1], median(cpu), cpu[0], cpu[cpu.length - 1], live, loads);
        });
        ratio(samples, "policy suggest", "read trail (baseline)");
        ratio(samples, "policy impact --format json", "read trail (baseline)");
        ratio(samples, "policy fmt", "read policy (baseline)");
    }

    /** The median of the per-round ratios, wall and CPU: each ratio from one round, both under the same load. */
    private static void ratio(Map<String, List<HeapWatch.Sample>> samples, String subject, String baseline) {
        List<HeapWatch.Sample> s = samples.get(subject);
        List<HeapWatch.Sample> b = samples.get(baseline);
        double[] wall = new double[s.size()];
        double[] cpu = new double[s.size()];
        for (int i = 0; i < wall.length; i++) {
            wall[i] = s.get(i).millis() / b.get(i).millis();
            cpu[i] = s.get(i).cpuMillis() / b.get(i).cpuMillis();
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        System.out.printf(Locale.ROOT, "%s / %s: wall median %.2f (%.2f-%.2f), CPU median %.2f (%.2f-%.2f), %d rounds%n",
                subject, baseline, median(wall), wall[0], wall[wall.length - 1], median(cpu), cpu[0],
                cpu[cpu.length - 1], wall.length);
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
