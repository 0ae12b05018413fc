package dev.stockade.proxy.internal;

import io.netty.channel.Channel;
import dev.stockade.proxy.Decider;
import dev.stockade.proxy.SandboxRegistry;
import java.net.InetSocketAddress;

/** Per client connection facts, computed once: the caller's executable and the sandbox. */
public final class ConnectionInfo {
    private final ProxyContext px;
    private final Channel channel;
    private boolean resolved;
    private String caller;
    private final long openedNanos = System.nanoTime();

    public ConnectionInfo(ProxyContext px, Channel channel) {
        this.px = px;
        this.channel = channel;
    }

    /** The kernel-resolved executable of the peer, {@code null} when unknown; resolved once. */
    public synchronized String caller() {
        if (!resolved) {
            resolved = true;
            if (channel.remoteAddress() instanceof InetSocketAddress remote
                    && channel.localAddress() instanceof InetSocketAddress local) {
                caller = px.callers.resolve(remote, local);
            }
        }
        return caller;
    }

    private volatile SandboxRegistry.Sandbox identified;

    /** The sandbox this connection belongs to, {@code null} when none is configured. */
    public String sandbox() {
        SandboxRegistry.Sandbox s = identified;
        return s != null ? s.name() : px.config.sandbox();
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

    /** The decider of this connection: its sandbox's policy set, or the proxy's own. */
    public Decider decider() {
        SandboxRegistry.Sandbox s = identified;
        return s != null ? s.decider().get() : px.decider.get();
    }

    /** When the connection was accepted. */
    public long openedNanos() {
        return openedNanos;
    }
}
