package dev.stockade.proxy.feed;

import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyPart;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.ReasonCode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One program per distinct document list, shared by every sandbox whose set lists the same documents: a policy change
 * reaches each distinct list once, a set re-sent unchanged costs nothing, and identical sandboxes hold one program
 * between them. A list is ready, and its sets may come into force, once its documents are read (each once per content
 * hash, {@link PolicyDocuments}, on a pool of one thread per core, since a document may have to be fetched); its
 * program is then compiled by whichever comes first, a compile thread in the background or the first decision that
 * needs it ({@link LazyProgram}). A list is forgotten when no sandbox uses it any more.
 */
final class SharedPrograms {

    /** The SHA-256 of a set's grant and ceiling document hashes, in order: equal keys compile to equal programs. */
    record Key(String sha256) {
    }

    private static final class Shared {
        private final LazyProgram program;
        private final CompletableFuture<Supplier<Enforcement>> ready = new CompletableFuture<>();
        /** A document was missing: the next sandbox listing these documents reads them again. */
        private volatile boolean missing;
        /** A holder wants it compiled ahead of its first decision; armed: its documents are read. */
        private final AtomicBoolean ahead = new AtomicBoolean();
        private volatile boolean armed;
        private final AtomicBoolean scheduled = new AtomicBoolean();
        private int users;

        private Shared(LazyProgram program) {
            this.program = program;
        }
    }

    /**
     * A sandbox's agent reaches tens of hosts, not thousands: the default memo (8,192 slots, 128 KiB) was most of a
     * follower's memory per sandbox, and every rewrite starts it empty anyway. 256 slots cost 4 KiB.
     */
    static final int HOST_MEMO_SLOTS = 256;
    /** How long no set may have arrived before the background compiles (sets of one change arrive closer). */
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
    private static final CompileOptions OPTIONS = CompileOptions.defaults().withHostMemoSlots(HOST_MEMO_SLOTS);

    private final Map<Key, Shared> programs = new HashMap<>(); // guarded by this
    private final PolicyDocuments documents;
    private final ExecutorService readers;
    private final ExecutorService compilers;
    private final Consumer<String> warn;
    private final AtomicLong compilations = new AtomicLong();
    /** When a list was last acquired: the background compiles once a burst of sets has passed. */
    private volatile long lastAcquired = System.nanoTime();

    /**
     * @param threads threads that read documents; programs compile in the background on one thread fewer (at least
     *                one), so that reading the next change's documents and the feed itself keep a core
     */
    SharedPrograms(int threads, PolicyDocuments documents, Consumer<String> warn) {
        this.readers = pool("policy-read-", threads);
        this.compilers = pool("policy-compile-", Math.max(1, threads - 1));
        this.documents = documents;
        this.warn = warn;
    }

    private static ExecutorService pool(String name, int threads) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, name + n.incrementAndGet());
                    t.setDaemon(true); // a proxy stops without waiting for work nobody will read
                    return t;
                });
        pool.allowCoreThreadTimeOut(true); // between policy changes a proxy keeps no idle threads
        return pool;
    }

    /** A set's document list and its key. */
    record Listing(Key key, List<DocumentHash> grants, List<DocumentHash> ceiling) {
    }

    /** The listing of a set's documents. */
    static Listing listingOf(SandboxSet set) {
        MessageDigest sha = DocumentHash.sha256();
        set.grants().forEach(d -> sha.update(d.hex().getBytes(StandardCharsets.US_ASCII)));
        sha.update((byte) '|'); // a document moved from the grants to the ceiling changes the key
        set.ceiling().forEach(d -> sha.update(d.hex().getBytes(StandardCharsets.US_ASCII)));
        return new Listing(new Key(HexFormat.of().formatHex(sha.digest())), set.grants(), set.ceiling());
    }

    /**
     * The program of {@code set}'s list, complete once its documents are read: at once when every one already is,
     * otherwise on the readers' pool. A sandbox that already holds or awaits the list shares it (unless it lacked a
     * document). The caller owns one use and gives it back with {@link #release}. With {@code ahead} the program
     * compiles in the background once the burst of sets has passed; without, at its first decision (unless another
     * holder of the list wants it ahead).
     */
    synchronized CompletableFuture<Supplier<Enforcement>> acquire(Listing listing, String sandboxId, boolean ahead) {
        lastAcquired = System.nanoTime();
        Shared shared = programs.get(listing.key());
        if (shared == null || shared.missing) {
            Shared fresh = new Shared(new LazyProgram());
            fresh.users = shared == null ? 0 : shared.users; // the holders of the failed program release this key
            programs.put(listing.key(), fresh);
            if (allRead(listing)) {
                prepare(listing, sandboxId, fresh); // nothing to read or fetch: no hop to a pool
            } else {
                readers.execute(() -> prepare(listing, sandboxId, fresh));
            }
            shared = fresh;
        }
        shared.users++;
        if (ahead && !shared.ahead.getAndSet(true) && shared.armed) {
            schedule(shared);
        }
        return shared.ready;
    }

    /** Gives back one use of {@code key}'s program; the last use forgets it. */
    synchronized void release(Key key) {
        Shared shared = programs.get(key);
        if (shared != null && --shared.users <= 0) {
            programs.remove(key);
            shared.program.forget();
        }
    }

    /** How many lists were compiled since the start (a change should compile only the lists it reaches). */
    long compilations() {
        return compilations.get();
    }

    /** How many distinct programs sandboxes hold or await. */
    synchronized int distinct() {
        return programs.size();
    }

    /**
     * Waits until every program held now that compiles ahead is compiled (a test's or a benchmark's wait; decisions
     * never need it).
     */
    void awaitCompiled() {
        List<Shared> held;
        synchronized (this) {
            held = programs.values().stream().filter(s -> s.ahead.get()).toList();
        }
        held.forEach(s -> {
            s.ready.join();
            s.program.await();
        });
    }

    private boolean allRead(Listing listing) {
        return listing.grants().stream().allMatch(documents::isRead)
                && listing.ceiling().stream().allMatch(documents::isRead);
    }

    /** Reads the list's documents; then the list is ready and its program compiles in the background. */
    private void prepare(Listing listing, String sandboxId, Shared into) {
        try {
            Optional<List<PolicyPart>> grants = read(listing.grants(), into);
            Optional<List<PolicyPart>> ceiling = read(listing.ceiling(), into);
            if (grants.isPresent() && ceiling.isPresent()) {
                into.program.arm(() -> build(grants.get(), ceiling.get(), sandboxId));
                into.armed = true;
                if (into.ahead.get()) {
                    schedule(into);
                }
            } else {
                into.program.settle(unavailable(sandboxId, "does not read", "the sandbox's policy could not be read"));
            }
        } catch (RuntimeException e) {
            into.program.settle(unavailable(sandboxId, "could not be read", "the sandbox's policy could not be read"));
        } finally {
            into.ready.complete(into.program);
        }
    }

    /** Queues the list's program for the background, once (both the reader and a later holder may ask). */
    private void schedule(Shared shared) {
        if (shared.scheduled.compareAndSet(false, true)) {
            compilers.execute(() -> {
                awaitQuiet();
                shared.program.precompile();
            });
        }
    }

    /**
     * Holds the background back while sets keep arriving: a change that reaches a thousand sandboxes arrives as a
     * burst, and compiling during it would take the cores the feed needs to bring the rest of the burst into force.
     * A decision that needs a program meanwhile compiles it itself.
     */
    private void awaitQuiet() {
        long quiet;
        while ((quiet = QUIET_NANOS - (System.nanoTime() - lastAcquired)) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(quiet);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private Enforcement build(List<PolicyPart> grants, List<PolicyPart> ceiling, String sandboxId) {
        compilations.incrementAndGet();
        try {
            // each document's part was prepared once when it was read: a list pays only the merge and the program
            return Enforcement.of(Resolver.resolveParts(InstallFacts.defaults(), ceiling, grants), OPTIONS);
        } catch (RuntimeException e) {
            return unavailable(sandboxId, "does not compile", "the sandbox's policy could not be compiled");
        }
    }

    private Enforcement unavailable(String sandboxId, String what, String detail) {
        warn.accept("sandbox " + sandboxId + ": its policy set " + what + "; it denies everything");
        return Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, detail);
    }

    /** The documents read, or empty when one does not read or cannot be had (then {@code into} is marked). */
    private Optional<List<PolicyPart>> read(List<DocumentHash> hashes, Shared into) {
        List<PolicyPart> out = new ArrayList<>(hashes.size());
        for (DocumentHash hash : hashes) {
            Optional<PolicyPart> p = documents.part(hash);
            if (p.isEmpty()) {
                into.missing = !documents.has(hash); // a document that does not read stays read (as invalid)
                return Optional.empty();
            }
            out.add(p.get());
        }
        return Optional.of(out);
    }
}
