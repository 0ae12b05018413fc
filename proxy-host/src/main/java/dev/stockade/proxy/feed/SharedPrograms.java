package dev.stockade.proxy.feed;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceMap;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
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
 * sandboxes hold one program between them. Compilation runs on a bounded pool (one thread per core); documents are
 * read once per content hash. A list is forgotten when no sandbox uses it any more.
 */
final class SharedPrograms {

    /** The SHA-256 of a set's grant and ceiling documents, in order: equal keys compile to equal programs. */
    record Key(String sha256) {
    }

    /** Distinct documents kept read (about two per sandbox of a proxy with a few thousand sandboxes). */
    private static final int DOCUMENT_CACHE = 10_000;

    private static final class Shared {
        private final CompletableFuture<Enforcement> program;
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
    /** Read documents by content hash: the core's strict validation is the costly step, paid once per document. */
    private final Cache<String, Policy> read = Caffeine.newBuilder().maximumSize(DOCUMENT_CACHE).build();
    private final ExecutorService compilers;
    private final Consumer<String> warn;
    private final AtomicLong compilations = new AtomicLong();

    SharedPrograms(int threads, Consumer<String> warn) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "policy-compile-" + n.incrementAndGet());
                    t.setDaemon(true); // a proxy stops without waiting for a compile nobody will read
                    return t;
                });
        pool.allowCoreThreadTimeOut(true); // between policy changes a proxy keeps no idle compile threads
        this.compilers = pool;
        this.warn = warn;
    }

    /** A set's document list: each document with its content hash, and the list's key. */
    record Listing(Key key, List<Document> grants, List<Document> ceiling) {
    }

    /** One document of a set and the SHA-256 of its text (hashed once, on the feed's thread). */
    record Document(JsonNode tree, String text, String sha256) {
    }

    /** The listing of a set's documents. */
    static Listing listingOf(SandboxSet set) {
        List<Document> grants = documents(set.grants());
        List<Document> ceiling = documents(set.ceiling());
        MessageDigest sha = sha256();
        grants.forEach(d -> sha.update(d.sha256().getBytes(StandardCharsets.US_ASCII)));
        sha.update((byte) '|'); // a document moved from the grants to the ceiling changes the key
        ceiling.forEach(d -> sha.update(d.sha256().getBytes(StandardCharsets.US_ASCII)));
        return new Listing(new Key(HexFormat.of().formatHex(sha.digest())), grants, ceiling);
    }

    /**
     * The program of {@code set}'s list, compiling it on the pool unless a sandbox already holds or awaits it; the
     * caller owns one use and gives it back with {@link #release}.
     */
    synchronized CompletableFuture<Enforcement> acquire(Listing listing, String sandboxId) {
        Shared shared = programs.computeIfAbsent(listing.key(), k -> new Shared(
                CompletableFuture.supplyAsync(() -> compile(listing, sandboxId), compilers)));
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

    private Enforcement compile(Listing listing, String sandboxId) {
        compilations.incrementAndGet();
        List<Policy> grants = read(listing.grants());
        List<Policy> ceiling = read(listing.ceiling());
        if (grants == null || ceiling == null) {
            warn.accept("sandbox " + sandboxId + ": its policy set does not read; it denies everything");
            return Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the sandbox's policy could not be read");
        }
        try {
            return Enforcement.of(Resolver.resolve(InstallFacts.defaults(), ceiling, grants), OPTIONS);
        } catch (RuntimeException e) {
            warn.accept("sandbox " + sandboxId + ": its policy set does not compile; it denies everything");
            return Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the sandbox's policy could not be compiled");
        }
    }

    private List<Policy> read(List<Document> docs) {
        List<Policy> out = new ArrayList<>();
        for (Document doc : docs) {
            Policy p = read.getIfPresent(doc.sha256());
            if (p == null) {
                ReadResult r = PolicyReader.fromTree(doc.tree(), SourceMap.empty(), "platform", doc.text());
                if (!r.valid()) {
                    return null;
                }
                p = r.policy();
                read.put(doc.sha256(), p);
            }
            out.add(p);
        }
        return out;
    }

    private static List<Document> documents(List<JsonNode> trees) {
        List<Document> out = new ArrayList<>(trees.size());
        for (JsonNode tree : trees) {
            String text = tree.toString();
            out.add(new Document(tree, text, documentHash(text)));
        }
        return out;
    }

    private static String documentHash(String text) {
        return HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }
}
