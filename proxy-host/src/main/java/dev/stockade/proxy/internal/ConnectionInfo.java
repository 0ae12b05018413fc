package dev.stockade.proxy.internal;

import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.proxy.SandboxRegistry;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutorGroup;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** Per client connection facts, computed once: the caller's executable and the sandbox. */
public final class ConnectionInfo {
    /** The client channel's connection info, for control actions that pick connections by sandbox. */
    public static final io.netty.util.AttributeKey<ConnectionInfo> KEY = io.netty.util.AttributeKey.valueOf("stockade.conn");
    private final ProxyContext px;
    private final Channel channel;
    private final AtomicBoolean resolving = new AtomicBoolean();
    private final CompletableFuture<String> caller = new CompletableFuture<>();
    private final long openedNanos = System.nanoTime();

    public ConnectionInfo(ProxyContext px, Channel channel) {
        this.px = px;
        this.channel = channel;
    }

    /**
     * Starts resolving the caller on one of {@code executors} now, while the client surely still holds
     * its socket, so the answer is ready (or nearly) when a decision or an audit line needs it.
     */
    public void resolveCallerSoon(EventExecutorGroup executors) {
        if (resolving.compareAndSet(false, true)) {
            try {
                executors.next().execute(this::resolveNow);
            } catch (RejectedExecutionException shuttingDown) {
                resolveNow();
            }
        }
    }

    /** The kernel-resolved executable of the peer, {@code null} when unknown; resolved once (may wait for it). */
    public String caller() {
        if (resolving.compareAndSet(false, true)) {
            resolveNow();
        }
        return caller.join();
    }

    /**
     * Runs {@code action} with the caller once it is known: at once when it is, else on the thread that
     * resolves it. For an event loop, which must not wait for a walk of {@code /proc}.
     */
    public void whenCallerKnown(Consumer<String> action) {
        if (resolving.compareAndSet(false, true)) {
            resolveNow();
        }
        caller.thenAccept(action);
    }

    private void resolveNow() {
        String found = null;
        try {
            if (channel.remoteAddress() instanceof InetSocketAddress remote
                    && channel.localAddress() instanceof InetSocketAddress local) {
                found = px.callers().resolve(remote, local);
            }
        } finally {
            caller.complete(found);
        }
    }

    private volatile SandboxRegistry.Sandbox identified;

    /** The sandbox this connection belongs to, {@code null} when none is configured. */
    public String sandbox() {
        SandboxRegistry.Sandbox s = identified;
        return s != null ? s.name() : px.config().sandbox();
    }

    /** Whether a sandbox token identified this connection. */
    public boolean identified() {
        return identified != null;
    }

    /** Binds the connection to a sandbox, once; later tokens on the same connection are ignored. */
    public void identify(SandboxRegistry.Sandbox sandbox) {
        if (identified == null) {
            identified = sandbox;
        }
    }

    /** The name of the sandbox this connection identified as, or null before (or without) identification. */
    public String identifiedSandbox() {
        SandboxRegistry.Sandbox s = identified;
        return s == null ? null : s.name();
    }

    /** The credentials this connection's sandbox may use: its own, or the proxy's store. */
    public dev.stockade.proxy.CredentialStore credentials() {
        SandboxRegistry.Sandbox s = identified;
        return s != null && s.credentials() != null ? s.credentials() : px.credentials();
    }

    /** The enforcement of this connection: its sandbox's policy set, or the proxy's own. */
    public Enforcement enforcement() {
        SandboxRegistry.Sandbox s = identified;
        return s != null ? s.enforcement().get() : px.enforcement().get();
    }

    /** The core's decision program of this connection ({@link #enforcement}'s). */
    public DecisionProgram program() {
        return enforcement().program();
    }

    /** When the connection was accepted. */
    public long openedNanos() {
        return openedNanos;
    }
}
