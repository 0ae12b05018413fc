package dev.stockade.bench;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.impact.Candidate;
import dev.stockade.policy.impact.CandidateSource;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.ImpactReplay;
import dev.stockade.policy.impact.ImpactReport;
import dev.stockade.policy.impact.RecordedDecision;
import dev.stockade.policy.impact.TrailStream;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ratio of issue 29's goal (replay per entry against a plain decision) in CPU time of the one measuring thread,
 * with every subject alternating in slices of a million in the same JVM: on a machine other builds load, wall time
 * per operation moves with the share of the cores a run gets, while the thread's own CPU time and the ratios of
 * slices taken seconds apart barely do. {@link ImpactReplayBenchmark} gives the same subjects in wall time (JMH).
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.ReplayCpuCost [rounds]</pre>
 */
public final class ReplayCpuCost {
    private static final int N = ImpactReplayBenchmark.ENTRIES;
    private static final int WINDOW = ImpactReplayBenchmark.WINDOW;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ReplayCpuCost() {
    }

    @FunctionalInterface
    private interface Slice {
        /** Runs a million operations; throws unless their answers are the expected ones. */
        void run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Map<String, Slice> slices = slices();
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        System.out.printf(Locale.ROOT, "# %s; slices of %,d; 2 warm-up rounds%n", Runtime.version(), N);
        for (int r = 1; r <= rounds + 2; r++) {
            for (Map.Entry<String, Slice> s : slices.entrySet()) {
                String load = HeapWatch.load();
                long c0 = THREADS.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                s.getValue().run();
                double cpuNs = (THREADS.getCurrentThreadCpuTime() - c0) / (double) N;
                double wallNs = (System.nanoTime() - w0) / (double) N;
                System.out.printf(Locale.ROOT, "%s %d %-40s cpu %7.1f ns/op  wall %7.1f ns/op  load %s%n",
                        r <= 2 ? "warm-up" : "round", r, s.getKey(), cpuNs, wallNs, load);
                if (r > 2) {
                    cpu.computeIfAbsent(s.getKey(), k -> new ArrayList<>()).add(cpuNs);
                }
            }
        }
        summary(cpu);
    }

    private static Map<String, Slice> slices() throws Exception {
        RecordedTraffic traffic = new RecordedTraffic(100);
        Path dir = Files.createTempDirectory("stockade-replay-cpu");
        byte[] head;
        RecordedTraffic.Expected holds;
        try {
            holds = traffic.write(dir.resolve("head.json"), WINDOW);
            head = Files.readAllBytes(dir.resolve("head.json"));
        } finally {
            Scratch.remove(dir);
        }
        List<RecordedDecision> window = new ArrayList<>();
        TrailStream.read(new ByteArrayInputStream(head), window::add);
        Candidate candidate = Candidate.of(Resolver.resolve(InstallFacts.defaults(), List.of(),
                List.of(traffic.candidate())));
        EgressRequest[] recorded = RecordedRequests.of(window.toArray(RecordedDecision[]::new));
        Workload plain = new Workload(100, true);
        DecisionProgram plainProgram = PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), List.of(),
                List.of(plain.policy())), CompileOptions.defaults());
        EgressRequest[] plainRequests = plain.requests();
        Map<String, Slice> slices = new LinkedHashMap<>();
        slices.put("decision (RequestDecisionBenchmark)", () -> decide(plainProgram, plainRequests));
        slices.put("decision (the trail's own requests)", () -> decide(candidate.program(), recorded));
        slices.put("re-decide (entries already read)", () -> {
            ImpactReplay replay = replay(candidate);
            for (int k = 0; k < N / WINDOW; k++) {
                window.forEach(replay::add);
            }
            check(replay.report(), holds);
        });
        slices.put("read (parse the export)", () -> {
            long[] n = {0};
            for (int k = 0; k < N / WINDOW; k++) {
                TrailStream.read(new ByteArrayInputStream(head), d -> n[0]++);
            }
            if (n[0] != N) {
                throw new IllegalStateException("read " + n[0]);
            }
        });
        slices.put("replay (read and re-decide)", () -> {
            ImpactReplay replay = replay(candidate);
            for (int k = 0; k < N / WINDOW; k++) {
                TrailStream.read(new ByteArrayInputStream(head), replay::add);
            }
            check(replay.report(), holds);
        });
        return slices;
    }

    private static ImpactReplay replay(Candidate candidate) {
        return new ImpactReplay(CandidateSource.everywhere(candidate), ImpactLimits.defaults());
    }

    /** A million decisions over {@code requests} in order; the allowed count must repeat the first pass's. */
    private static void decide(DecisionProgram program, EgressRequest[] requests) {
        long allowed = 0;
        for (int i = 0; i < N; i++) {
            EgressRequest r = requests[i % requests.length];
            allowed += (r.isConnection() ? program.decideConnection(r) : program.decide(r)).allowed() ? 1 : 0;
        }
        if (allowed == 0 || allowed == N) {
            throw new IllegalStateException("every decision the same: " + allowed);
        }
    }

    private static void check(ImpactReport r, RecordedTraffic.Expected window) {
        int k = N / WINDOW;
        if (r.entries() != N || r.newlyDenied() != window.newlyDenied() * k
                || r.newlyAllowed() != window.newlyAllowed() * k || r.notReplayable() != window.notReplayable() * k) {
            throw new IllegalStateException("replay " + r + " of " + k + " times " + window);
        }
    }

    private static void summary(Map<String, List<Double>> cpu) {
        System.out.println();
        System.out.println("| slice | CPU ns per op, median | min-max |");
        System.out.println("|---|---|---|");
        cpu.forEach((name, v) -> {
            double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f-%.1f |%n", name, median(s), s[0], s[s.length - 1]);
        });
        List<Double> plain = cpu.get("decision (RequestDecisionBenchmark)");
        List<Double> own = cpu.get("decision (the trail's own requests)");
        List<Double> redecide = cpu.get("re-decide (entries already read)");
        List<Double> read = cpu.get("read (parse the export)");
        List<Double> whole = cpu.get("replay (read and re-decide)");
        ratio("re-decide / decision (RequestDecisionBenchmark)", redecide, plain, null);
        ratio("re-decide / decision (the trail's own requests)", redecide, own, null);
        ratio("(replay - read) / decision (RequestDecisionBenchmark)", whole, plain, read);
        ratio("replay / read", whole, read, null);
        double[] goal = new double[whole.size()];
        for (int i = 0; i < goal.length; i++) {
            goal[i] = whole.get(i) / (2 * plain.get(i) + read.get(i));
        }
        Arrays.sort(goal);
        System.out.printf(Locale.ROOT, "replay / (2 x decision (RequestDecisionBenchmark) + read), the goal's"
                + " ratio (at most 1 meets it): median %.2f (%.2f-%.2f)%n", median(goal), goal[0], goal[goal.length - 1]);
    }

    /** Per round: (a - minus) / b, each round's slices taken seconds apart; the median and range over rounds. */
    private static void ratio(String name, List<Double> a, List<Double> b, List<Double> minus) {
        double[] r = new double[a.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = (a.get(i) - (minus == null ? 0 : minus.get(i))) / b.get(i);
        }
        Arrays.sort(r);
        System.out.printf(Locale.ROOT, "%s: median %.2f (%.2f-%.2f)%n", name, median(r), r[0], r[r.length - 1]);
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
