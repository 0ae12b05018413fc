package dev.stockade.proxy.internal;

import io.netty.channel.Channel;
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

    /** The sandbox this connection belongs to, {@code null} when none is configured. */
    public String sandbox() {
        return px.config.sandbox();
    }

    /** When the connection was accepted. */
    public long openedNanos() {
        return openedNanos;
    }
}
