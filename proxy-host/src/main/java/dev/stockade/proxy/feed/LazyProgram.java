package dev.stockade.proxy.feed;

import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.eval.ReasonCode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A list's program, compiled exactly once by whichever comes first: a compile thread in the background, or the first
 * decision that needs it (which then pays the compile, a fraction of a millisecond for a hundred entries). So a set is
 * in force as soon as its documents are read: every decision from then on is taken under it, whether or not the
 * background has reached its list yet. Decisions that arrive while another thread compiles wait for that compile.
 */
final class LazyProgram implements Supplier<Enforcement> {
    private final CompletableFuture<Enforcement> done = new CompletableFuture<>();
    private final AtomicBoolean claimed = new AtomicBoolean();
    private volatile Enforcement program;
    /** How to build it: set before the list is ready, dropped once built (with the read documents it holds). */
    private volatile Supplier<Enforcement> build;
    private volatile boolean forgotten;

    /** Gives the way to build the program; called before any decision can reach it. */
    void arm(Supplier<Enforcement> how) {
        this.build = how;
    }

    /** Ends the program as {@code fixed} (a list whose documents cannot be had), unless it was built already. */
    void settle(Enforcement fixed) {
        if (claimed.compareAndSet(false, true)) {
            finish(fixed);
        }
    }

    @Override
    public Enforcement get() {
        Enforcement p = program;
        if (p != null) {
            return p;
        }
        return claimed.compareAndSet(false, true) ? run() : done.join();
    }

    /** The background's turn: builds the program unless a decision did, or no sandbox holds the list any more. */
    void precompile() {
        if (!forgotten && program == null && claimed.compareAndSet(false, true)) {
            run();
        }
    }

    /** No sandbox holds the list any more: the background skips it. */
    void forget() {
        forgotten = true;
    }

    /** Waits until the program is built, or until it is forgotten without having been built. */
    void await() {
        while (!forgotten || claimed.get()) {
            try {
                done.get(50, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                // forgotten meanwhile? look again
            } catch (ExecutionException e) {
                return; // never completed exceptionally; nothing to wait for
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private Enforcement run() {
        Enforcement built = null;
        try {
            built = build.get();
        } finally {
            if (built == null) { // an Error on the way: fail closed, and let nobody wait forever
                built = Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the sandbox's policy could not be compiled");
            }
            finish(built);
        }
        return built;
    }

    private Enforcement finish(Enforcement built) {
        program = built;
        build = null;
        done.complete(built);
        return built;
    }
}
