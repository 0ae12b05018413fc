package dev.stockade.bench;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.impact.Candidate;
import dev.stockade.policy.impact.CandidateSource;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.ImpactReplay;
import dev.stockade.policy.impact.ImpactReport;
import dev.stockade.policy.impact.RecordedDecision;
import dev.stockade.policy.impact.TrailStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code policy impact} over a trail of 1,000,000 recorded decisions ({@link RecordedTraffic}), in ns per entry, split
 * the way the goal is stated (issue 29: replay costs no more than 2x a decision per entry plus reading):
 * {@code readTrail} parses the exported file alone, {@code redecide} replays entries already read, and
 * {@code replayTrail} does both, as the CLI does. Run beside {@link RequestDecisionBenchmark} with the same
 * {@code size}, so that the ratio to a plain decision comes from one run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class ImpactReplayBenchmark {
    static final int ENTRIES = 1_000_000;
    /** About as many entries as the decision benchmark cycles through ({@link Workload#REQUESTS}), dividing ENTRIES. */
    static final int WINDOW = 1_000;
    private static final Set<String> IN_MEMORY = Set.of("redecide", "decideRecorded");

    /** Entries of the recorded policy (the candidate removes three and adds one). */
    @Param({"100"})
    public int size;

    private Path dir;
    private Path trail;
    private Candidate candidate;
    /** The entries re-decided alone, as TrailStream hands them over: each one hot in cache, as in the CLI. */
    private RecordedDecision[] read;
    /** The window's egress decisions as replay rebuilds them, for the plain decision on the trail's own requests. */
    private EgressRequest[] requests;
    private int next;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws Exception {
        RecordedTraffic traffic = new RecordedTraffic(size);
        dir = Files.createTempDirectory("stockade-impact-bench");
        // as `policy impact CANDIDATE --audit FILE` resolves it: install defaults, no ceiling, one policy
        candidate = Candidate.of(Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(traffic.candidate())));
        // the first WINDOW entries of the trail (the same seed writes the same entries), read as the CLI reads them
        Path head = dir.resolve("head.json");
        RecordedTraffic.Expected windowHolds = traffic.write(head, WINDOW);
        List<RecordedDecision> window = new ArrayList<>(WINDOW);
        try (InputStream in = Files.newInputStream(head)) {
            TrailStream.read(in, window::add);
        }
        read = window.toArray(RecordedDecision[]::new);
        requests = RecordedRequests.of(read);
        check(replayRead(), times(windowHolds, ENTRIES / WINDOW));
        if (!IN_MEMORY.contains(params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1))) {
            trail = dir.resolve("trail.json"); // 600 MB: written only for the benchmarks that read it
            RecordedTraffic.Expected holds = traffic.write(trail, ENTRIES);
            if (holds.newlyDenied() == 0 || holds.newlyAllowed() == 0 || holds.notReplayable() == 0) {
                throw new IllegalStateException("the trail must hold every kind of change: " + holds);
            }
            check(replay(), holds);
        }
    }

    private static RecordedTraffic.Expected times(RecordedTraffic.Expected e, int k) {
        return new RecordedTraffic.Expected(e.entries() * k, e.newlyDenied() * k, e.newlyAllowed() * k,
                e.notReplayable() * k);
    }

    private static void check(ImpactReport r, RecordedTraffic.Expected expected) {
        boolean same = r.entries() == expected.entries() && r.newlyDenied() == expected.newlyDenied()
                && r.newlyAllowed() == expected.newlyAllowed() && r.notReplayable() == expected.notReplayable()
                && r.unchanged() == expected.unchanged();
        if (!same) {
            throw new IllegalStateException("replay " + r.entries() + " entries, " + r.newlyDenied() + " newly denied, "
                    + r.newlyAllowed() + " newly allowed, " + r.notReplayable() + " not replayable; the trail holds "
                    + expected);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Scratch.remove(dir);
    }

    /** Reading alone: the exported file parsed entry by entry into recorded decisions, as the CLI streams it. */
    @Benchmark
    @OperationsPerInvocation(ENTRIES)
    public void readTrail(Blackhole bh) throws Exception {
        stream(bh::consume);
    }

    /**
     * Re-deciding alone: the trail's first {@link #WINDOW} entries, already read, replayed 1,000 times in one replay
     * (1,000,000 entries, the cap), and the report. A window rather than the whole trail in memory: held whole, a
     * million records spread over hundreds of MB and each entry pays cache misses the CLI never pays, since it
     * re-decides each entry the moment it is read.
     */
    @Benchmark
    @OperationsPerInvocation(ENTRIES)
    public ImpactReport redecide() {
        return replayRead();
    }

    /**
     * The plain decision on the trail's own requests: the window's egress entries, rebuilt as replay rebuilds them,
     * decided by the candidate's program one per call, cycled like {@link RequestDecisionBenchmark}'s requests.
     * Beside {@code redecide} it separates what replay adds from what the trail's requests cost to decide.
     */
    @Benchmark
    public Decision decideRecorded() {
        int i = next;
        next = i + 1 == requests.length ? 0 : i + 1;
        EgressRequest r = requests[i];
        return r.isConnection() ? candidate.program().decideConnection(r) : candidate.program().decide(r);
    }

    /** The whole of {@code policy impact --audit FILE} but the rendering: read, re-decide, report. */
    @Benchmark
    @OperationsPerInvocation(ENTRIES)
    public ImpactReport replayTrail() throws Exception {
        return replay();
    }

    private ImpactReport replayRead() {
        ImpactReplay replay = new ImpactReplay(CandidateSource.everywhere(candidate), ImpactLimits.defaults());
        for (int k = 0; k < ENTRIES / WINDOW; k++) {
            for (RecordedDecision r : read) {
                replay.add(r);
            }
        }
        return replay.report();
    }

    private ImpactReport replay() throws Exception {
        ImpactReplay replay = new ImpactReplay(CandidateSource.everywhere(candidate), ImpactLimits.defaults());
        stream(replay::add);
        return replay.report();
    }

    private void stream(Consumer<RecordedDecision> sink) throws Exception {
        try (InputStream in = Files.newInputStream(trail)) {
            TrailStream.read(in, sink);
        }
    }
}
