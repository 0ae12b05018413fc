package dev.stockade.proxy.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A bounded pool of idle, kept-alive origin connections, so that consecutive requests to one origin
 * do not each pay a TCP connect and a TLS handshake. Thread-safe.
 *
 * <p>A connection is only ever handed out for the exact {@link Key} it was opened for: the sandbox,
 * the scheme, the host as decided, the port, the address the dial guard checked and the TLS server
 * name. The pool never decides anything: every request is decided (and its credentials applied) before
 * a pooled connection is asked for. Connections are also kept per event loop, so that an origin channel
 * always shares the client's event loop (see {@code Upstream}).
 *
 * <p>{@link #clear()} (on halt and on every policy reload) empties the pool and bumps a generation:
 * connections opened or lent out before it are closed instead of returning to the pool.
 */
public final class OriginPool {

    /**
     * What a pooled connection is good for.
     *
     * @param sandbox    sandbox (or policy set) the requests come from; "" for a single-sandbox proxy
     * @param scheme     {@code http} or {@code https}
     * @param host       host as decided (normalised)
     * @param port       origin port
     * @param address    the exact address the dial guard checked and the connection was dialed to
     * @param serverName TLS server name sent (and verified) for https, {@code null} for http
     */
    public record Key(String sandbox, String scheme, String host, int port, InetAddress address, String serverName) {
    }

    private record Slot(Key key, EventLoop loop) {
    }

    /** Generation a channel was opened in; a channel of an older generation never returns to the pool. */
    private static final AttributeKey<Long> GENERATION = AttributeKey.valueOf("stockade.pool.generation");

    private final Duration idle;
    private final int perKey;
    private final int max;
    private final Map<Slot, ArrayDeque<Channel>> idleBySlot = new HashMap<>();
    /** Idle connections per key, over every event loop: the per-key cap counts them all. */
    private final Map<Key, Integer> idleByKey = new HashMap<>();
    private int idleCount;
    private long generation;

    public OriginPool(Duration idle, int perKey, int max) {
        this.idle = idle;
        this.perKey = perKey;
        this.max = max;
    }

    /** Whether reuse is on at all. */
    public boolean enabled() {
        return max > 0 && perKey > 0 && !idle.isZero() && !idle.isNegative();
    }

    /** Marks a freshly dialed channel with the current generation. */
    public synchronized void opened(Channel ch) {
        ch.attr(GENERATION).set(generation);
    }

    /**
     * An idle, open connection for {@code key} on {@code loop}, removed from the pool; {@code null}
     * when none. The caller owns it and must either {@link #release} or close it.
     */
    public Channel acquire(Key key, EventLoop loop) {
        List<Channel> dead = new ArrayList<>();
        Channel found = null;
        synchronized (this) {
            ArrayDeque<Channel> q = idleBySlot.get(new Slot(key, loop));
            while (q != null && !q.isEmpty()) {
                Channel ch = q.pollLast(); // most recently used: the least likely to have been closed by the origin
                taken(key);
                if (ch.isActive()) {
                    found = ch;
                    break;
                }
                dead.add(ch);
            }
            if (q != null && q.isEmpty()) {
                idleBySlot.remove(new Slot(key, loop));
            }
        }
        dead.forEach(Channel::close);
        return found;
    }

    /**
     * Returns a connection whose last response was read completely and which both sides keep alive.
     * Must run on the channel's event loop. Closes it instead when it is no longer active, belongs to an
     * older generation (opened before a halt or reload), or the pool is full.
     */
    public void release(Key key, Channel ch) {
        boolean keep = false;
        synchronized (this) {
            Long born = ch.attr(GENERATION).get();
            if (enabled() && ch.isActive() && born != null && born == generation && idleCount < max) {
                Slot slot = new Slot(key, ch.eventLoop());
                if (idleByKey.getOrDefault(key, 0) < perKey) {
                    idleBySlot.computeIfAbsent(slot, s -> new ArrayDeque<>()).addLast(ch);
                    idleByKey.merge(key, 1, Integer::sum);
                    idleCount++;
                    keep = true;
                }
            }
        }
        if (!keep) {
            ch.close();
            return;
        }
        // while idle, any byte or close from the origin ends the connection; so does the idle bound
        IdleWatch watch = new IdleWatch(this, key);
        ch.pipeline().replace("relay", "relay", watch);
        watch.timer = ch.eventLoop().schedule(() -> {
            if (remove(key, ch)) {
                ch.close();
            }
        }, idle.toMillis(), TimeUnit.MILLISECONDS);
        ch.read(); // notice the origin closing an idle connection at once, not at the next request
    }

    /** Closes every idle connection and retires every connection lent out (halt, policy reload). */
    public void clear() {
        List<Channel> all = new ArrayList<>();
        synchronized (this) {
            generation++;
            idleBySlot.values().forEach(all::addAll);
            idleBySlot.clear();
            idleByKey.clear();
            idleCount = 0;
        }
        all.forEach(Channel::close);
    }

    /** Idle connections held now. */
    public synchronized int idleCount() {
        return idleCount;
    }

    private boolean remove(Key key, Channel ch) {
        synchronized (this) {
            Slot slot = new Slot(key, ch.eventLoop());
            ArrayDeque<Channel> q = idleBySlot.get(slot);
            if (q != null && q.remove(ch)) {
                taken(key);
                if (q.isEmpty()) {
                    idleBySlot.remove(slot);
                }
                return true;
            }
            return false;
        }
    }

    // INVARIANT: called under the lock, once per idle connection leaving the pool
    private void taken(Key key) {
        idleCount--;
        idleByKey.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
    }

    /** Sits in place of the relay while a connection is idle in the pool. */
    private static final class IdleWatch extends ChannelInboundHandlerAdapter {
        private final OriginPool pool;
        private final Key key;
        io.netty.util.concurrent.ScheduledFuture<?> timer;

        IdleWatch(OriginPool pool, Key key) {
            this.pool = pool;
            this.key = key;
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (timer != null) {
                timer.cancel(false);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            // an origin speaking unasked: the connection is out of step, never reuse it
            ReferenceCountUtil.release(msg);
            pool.remove(key, ctx.channel());
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            pool.remove(key, ctx.channel());
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof io.netty.handler.timeout.IdleStateEvent) {
                pool.remove(key, ctx.channel());
                ctx.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            pool.remove(key, ctx.channel());
            ctx.close();
        }
    }
}
