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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One compiled program per distinct document list, shared by every sandbox whose set lists the same documents: a
 * policy change then compiles each distinct list once, a set re-sent unchanged compiles nothing, and identical
 * sandboxes hold one program between them. Compilation runs on a bounded pool (one thread per core); documents come
 * read from {@link PolicyDocuments}, once per content hash. A list is forgotten when no sandbox uses it any more.
 */
final class SharedPrograms {

    /** The SHA-256 of a set's grant and ceiling document hashes, in order: equal keys compile to equal programs. */
    record Key(String sha256) {
    }

    private static final class Shared {
        private final CompletableFuture<Enforcement> program;
        /** A document was missing: the next sandbox listing these documents compiles them again. */
        private volatile boolean missing;
        private int users;

        private Shared(CompletableFuture<Enforcement> program) {
            this.program = program;
        }
    }

    /**
     * A sandbox's agent reaches tens of hosts, not thousands: the default memo (8,192 slots, 128 KiB) was most of a
     * follower's memory per sandbox, and every rewrite starts it empty anyway. 256 slots cost 4 KiB.
     */
    static final int HOST_MEMO_SLOTS = 256;
    private static final CompileOptions OPTIONS = CompileOptions.defaults().withHostMemoSlots(HOST_MEMO_SLOTS);

    private final Map<Key, Shared> programs = new HashMap<>(); // guarded by this
    private final PolicyDocuments documents;
    private final ExecutorService compilers;
    private final Consumer<String> warn;
    private final AtomicLong compilations = new AtomicLong();

    SharedPrograms(int threads, PolicyDocuments documents, Consumer<String> warn) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "policy-compile-" + n.incrementAndGet());
                    t.setDaemon(true); // a proxy stops without waiting for a compile nobody will read
                    return t;
                });
        pool.allowCoreThreadTimeOut(true); // between policy changes a proxy keeps no idle compile threads
        this.compilers = pool;
        this.documents = documents;
        this.warn = warn;
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
     * The program of {@code set}'s list, compiling it on the pool unless a sandbox already holds or awaits it (and it
     * did not lack a document); the caller owns one use and gives it back with {@link #release}.
     */
    synchronized CompletableFuture<Enforcement> acquire(Listing listing, String sandboxId) {
        Shared shared = programs.get(listing.key());
        if (shared == null || shared.missing) {
            Shared fresh = new Shared(new CompletableFuture<>());
            fresh.users = shared == null ? 0 : shared.users; // the holders of the failed program release this key
            programs.put(listing.key(), fresh);
            CompletableFuture.runAsync(() -> fresh.program.complete(compile(listing, sandboxId, fresh)), compilers);
            shared = fresh;
        }
        shared.users++;
        return shared.program;
    }

    /** Gives back one use of {@code key}'s program; the last use forgets it. */
    synchronized void release(Key key) {
        Shared shared = programs.get(key);
        if (shared != null && --shared.users <= 0) {
            programs.remove(key);
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

    private Enforcement compile(Listing listing, String sandboxId, Shared into) {
        compilations.incrementAndGet();
        try {
            Optional<List<PolicyPart>> grants = read(listing.grants(), into);
            Optional<List<PolicyPart>> ceiling = read(listing.ceiling(), into);
            if (grants.isEmpty() || ceiling.isEmpty()) {
                warn.accept("sandbox " + sandboxId + ": its policy set does not read; it denies everything");
                return Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the sandbox's policy could not be read");
            }
            // each document's part was prepared once when it was read: a list pays only the merge and the program
            return Enforcement.of(Resolver.resolveParts(InstallFacts.defaults(), ceiling.get(), grants.get()),
                    OPTIONS);
        } catch (RuntimeException e) {
            warn.accept("sandbox " + sandboxId + ": its policy set does not compile; it denies everything");
            return Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the sandbox's policy could not be compiled");
        }
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
