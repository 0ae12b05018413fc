package dev.stockade.proxy.feed;

import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.proxy.Credential;
import dev.stockade.proxy.CredentialStore;
import dev.stockade.proxy.SandboxRegistry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Keeps a {@link SandboxRegistry#dynamic() dynamic registry} equal to what the platform says each sandbox enforces.
 * A set whose documents do not read or compile denies everything for that sandbox (fail closed); a halted
 * organization's sandboxes deny everything until the halt is lifted, and their open connections are closed when it
 * begins. Sets name their documents by content hash ({@link PolicyDocuments}: each read once, fetched when missing,
 * a set with a document that cannot be had denies everything); sandboxes whose sets list the same documents share
 * one program ({@link SharedPrograms}); sets {@link #submit submitted} come into force strictly in the order
 * submitted, as soon as their documents are read, and their programs compile in the background or at the first
 * decision that needs them, whichever comes first ({@link LazyProgram}). One thread
 * submits (the feed's reader or the platform's follower); lookups ({@link #owner}) may come from any thread.
 */
public final class FeedApplier {

    /** Where a sandbox belongs, for audit lines. */
    public record Owner(String orgId, String projectId) {
    }

    private record Entry(String digest, String orgId, String projectId, SharedPrograms.Key key,
                         Supplier<Enforcement> compiled, AtomicReference<Supplier<Enforcement>> current) {
    }

    /** A set waiting for its documents to be read; installed once it and every set before it are ready. */
    private record Pending(SandboxSet set, SharedPrograms.Key key, CompletableFuture<Supplier<Enforcement>> program,
                           Consumer<SandboxSet> then) {
    }

    private static final Enforcement HALTED = Enforcement.denyAll(ReasonCode.HALTED, "the organization is halted");
    private static final Supplier<Enforcement> HALTED_PROGRAM = () -> HALTED;

    private final SandboxRegistry registry;
    private final Consumer<Set<String>> closeConnections;
    private final Consumer<String> warn;
    private final PolicyDocuments documents;
    private final SharedPrograms programs;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final ArrayDeque<Pending> pending = new ArrayDeque<>(); // guarded by this
    private final Set<String> halted = ConcurrentHashMap.newKeySet();
    private final Predicate<String> compileAhead;

    /**
     * @param registry         the registry the proxy identifies sandboxes with
     * @param closeConnections closes the open connections of the named sandboxes (on a halt)
     * @param warn             where a warning goes (never carries a secret)
     */
    public FeedApplier(SandboxRegistry registry, Consumer<Set<String>> closeConnections, Consumer<String> warn) {
        this(registry, closeConnections, warn, Runtime.getRuntime().availableProcessors());
    }

    /** As above, compiling on {@code compileThreads} threads. */
    public FeedApplier(SandboxRegistry registry, Consumer<Set<String>> closeConnections, Consumer<String> warn,
                       int compileThreads) {
        this(registry, closeConnections, warn, compileThreads, sandboxId -> true);
    }

    /**
     * As above, compiling in the background only the programs of the sandboxes {@code compileAhead} names (those this
     * proxy expects to serve); the others compile at their first decision, and a list shared with a named sandbox
     * compiles ahead for all of them.
     */
    public FeedApplier(SandboxRegistry registry, Consumer<Set<String>> closeConnections, Consumer<String> warn,
                       int compileThreads, Predicate<String> compileAhead) {
        this.compileAhead = compileAhead;
        this.registry = registry;
        this.closeConnections = closeConnections;
        this.warn = warn;
        this.documents = new PolicyDocuments(warn);
        this.programs = new SharedPrograms(Math.max(1, compileThreads), documents, warn);
    }

    /** The documents the sets name by hash: the feed offers them here before the sets that list them. */
    public PolicyDocuments documents() {
        return documents;
    }

    /** Adds or replaces a sandbox's set and returns once it is in force (its program may still compile). */
    public void apply(SandboxSet set) {
        submit(set, s -> { });
        settle();
    }

    /**
     * Adds or replaces a sandbox's set without waiting for its documents to be read; it comes into force after every
     * set submitted before it, and {@code inForce} is called then (on whichever thread installed it). In force means
     * every decision from then on is taken under it: its program is compiled in the background or, if a decision
     * comes first, by that decision.
     */
    public void submit(SandboxSet set, Consumer<SandboxSet> inForce) {
        SharedPrograms.Listing listing = SharedPrograms.listingOf(set);
        Pending p;
        synchronized (this) {
            p = new Pending(set, listing.key(),
                    programs.acquire(listing, set.sandboxId(), compileAhead.test(set.sandboxId())), inForce);
            pending.add(p);
        }
        p.program().whenComplete((e, failure) -> installReady());
    }

    /** Waits until every submitted set is in force (reading always ends: a failure becomes a deny-all). */
    public synchronized void settle() {
        boolean interrupted = false;
        while (!pending.isEmpty()) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true; // order matters more than the interrupt: finish, then restore it
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Forgets a sandbox: its next connection is refused (407). */
    public void remove(String sandboxId) {
        settle();
        synchronized (this) {
            Entry old = entries.remove(sandboxId);
            if (old != null) {
                registry.remove(old.digest());
                programs.release(old.key());
            }
        }
    }

    /** Replaces the set of halted organizations (a feed sends the whole set on connect and on every change). */
    public void halted(Set<String> orgs) {
        // no wait for pending sets: each is installed through refresh, which reads the halted set then, so a halt
        // is in force at once for the sandboxes in force and for every set still compiling
        Set<String> started = new HashSet<>(orgs);
        synchronized (this) {
            started.removeAll(halted);
            Set<String> lifted = new HashSet<>(halted);
            lifted.removeAll(orgs);
            halted.addAll(started);
            halted.removeAll(lifted);
            entries.values().stream().filter(e -> started.contains(e.orgId()) || lifted.contains(e.orgId()))
                    .forEach(this::refresh);
        }
        if (!started.isEmpty()) {
            closeOpen(started);
        }
    }

    /** One organization's halt began ({@code on}) or was lifted. */
    public void halt(String orgId, boolean on) {
        Set<String> next = new HashSet<>(halted);
        if (on) {
            next.add(orgId);
        } else {
            next.remove(orgId);
        }
        halted(next);
    }

    /** Where the sandbox belongs, or empty for one this proxy does not serve. */
    public Optional<Owner> owner(String sandboxId) {
        Entry e = entries.get(sandboxId);
        return e == null ? Optional.empty() : Optional.of(new Owner(e.orgId(), e.projectId()));
    }

    /** The enforcement a sandbox's decisions are taken under now, or empty for one this proxy does not serve. */
    public Optional<Enforcement> enforcement(String sandboxId) {
        Entry e = entries.get(sandboxId);
        return e == null ? Optional.empty() : Optional.of(e.current().get().get());
    }

    /** How many sandboxes the proxy serves. */
    public int size() {
        return entries.size();
    }

    /**
     * Waits until every set submitted is in force and the program of every list in force that compiles ahead is
     * compiled.
     */
    public void settleCompiled() {
        settle();
        programs.awaitCompiled();
    }

    /** How many distinct programs the sandboxes share between them. */
    public int programs() {
        return programs.distinct();
    }

    /** How many document lists were compiled since the start. */
    public long compilations() {
        return programs.compilations();
    }

    private synchronized void installReady() {
        while (!pending.isEmpty() && pending.peek().program().isDone()) {
            Pending p = pending.poll();
            install(p.set(), p.key(), programOf(p));
            p.then().accept(p.set());
        }
        if (pending.isEmpty()) {
            notifyAll();
        }
    }

    private static Supplier<Enforcement> programOf(Pending p) {
        try {
            return p.program().get();
        } catch (ExecutionException | InterruptedException | RuntimeException e) {
            // SharedPrograms turns every read failure into a deny-all; this is the belt to its braces
            Enforcement none = Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the sandbox's policy could not be read");
            return () -> none;
        }
    }

    private void install(SandboxSet set, SharedPrograms.Key key, Supplier<Enforcement> compiled) {
        Entry old = entries.remove(set.sandboxId());
        if (old != null) {
            registry.remove(old.digest());
            programs.release(old.key());
        }
        Entry entry = new Entry(set.tokenSha256(), set.orgId(), set.projectId(), key, compiled,
                new AtomicReference<>());
        refresh(entry);
        entries.put(set.sandboxId(), entry);
        AtomicReference<Supplier<Enforcement>> current = entry.current();
        registry.put(entry.digest(), new SandboxRegistry.Sandbox(set.sandboxId(), () -> current.get().get(),
                credentials(set)));
    }

    private void closeOpen(Set<String> orgs) {
        // deny-all is in place: now close what is open (tunnels, sockets, kept-alive connections)
        Set<String> names = new HashSet<>();
        entries.forEach((id, e) -> {
            if (orgs.contains(e.orgId())) {
                names.add(id);
            }
        });
        closeConnections.accept(names);
    }

    private void refresh(Entry e) {
        e.current().set(halted.contains(e.orgId()) ? HALTED_PROGRAM : e.compiled());
    }

    private CredentialStore credentials(SandboxSet set) {
        List<Credential> out = new ArrayList<>();
        for (SandboxSet.CredentialSpec c : set.credentials()) {
            try {
                out.add(new Credential(Credential.idFor(c.name()), c.name(), c.secret(), c.domains(),
                        c.headerFormat()));
            } catch (IllegalArgumentException bad) {
                warn.accept("sandbox " + set.sandboxId() + ": credential `" + c.name() + "` is not usable: "
                        + bad.getMessage());
            }
        }
        return CredentialStore.of(out);
    }
}
