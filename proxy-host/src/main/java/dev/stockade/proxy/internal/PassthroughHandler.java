package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.Transport;
import dev.stockade.proxy.EgressReason;
import dev.stockade.proxy.dial.DialGuard;
import dev.stockade.proxy.dial.IpLiterals;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The passthrough listener for direct transport. TLS: reads the ClientHello's server name (bounded,
 * own parser), decides the connection and splices bytes to the origin without decrypting. Plain
 * HTTP: hands the connection to the HTTP handler, which decides every request by its Host header.
 */
public final class PassthroughHandler extends ChannelInboundHandlerAdapter {
    private final ProxyContext px;
    private final ConnectionInfo conn;
    private ByteBuf buffered;
    private boolean decided;
    /** The client's FIN arrived before the splice was in place (the listener allows half-closure). */
    private boolean inputEnded;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // runs in the channel initializer, before the first read: count every byte taken in, spliced or
        // read; and a FIN that arrives with or before the first record must not close the connection
        // before the splice can pass it on
        ctx.channel().config().setRecvByteBufAllocator(new ReadCounter());
        ctx.channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // the caller is looked up while the client sends its first record: the audit line names it, and a
        // caller fence, if one applies, finds it ready
        conn.resolveCallerSoon(px.callerLookups());
        // a client that never finishes its first record is refused, whatever the idle timeout
        ctx.executor().schedule(() -> {
            if (!decided) {
                refuse(ctx, null, EgressReason.HANDSHAKE_TIMEOUT, "no complete ClientHello or request in time");
            }
        }, px.config().handshakeTimeout().toMillis(), TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    public PassthroughHandler(ProxyContext px, ConnectionInfo conn) {
        this.px = px;
        this.conn = conn;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (decided && buffered != null && msg instanceof ByteBuf more) {
            // arrived while deciding or dialing: epoll reads once on a peer's FIN even with reads off
            buffered.writeBytes(more);
            more.release();
            return;
        }
        if (decided || !(msg instanceof ByteBuf in)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (buffered == null) {
            buffered = ctx.alloc().buffer(Math.max(512, in.readableBytes()));
        }
        int room = ClientHello.MAX_RECORD - buffered.readableBytes();
        buffered.writeBytes(in, in.readerIndex(), Math.min(room, in.readableBytes()));
        boolean overflow = in.readableBytes() > room;
        in.release();
        if (buffered.getByte(0) != 0x16) {
            handOverToHttp(ctx);
            return;
        }
        byte[] bytes = new byte[buffered.readableBytes()];
        buffered.getBytes(buffered.readerIndex(), bytes);
        ClientHello.Result r = ClientHello.parse(bytes, bytes.length);
        if (r instanceof ClientHello.NeedMore) {
            if (overflow || bytes.length >= ClientHello.MAX_RECORD) {
                refuse(ctx, null, EgressReason.MALFORMED_CLIENT_HELLO, "ClientHello larger than one record");
            }
            return;
        }
        decided = true;
        if (r instanceof ClientHello.Malformed m) {
            refuse(ctx, null, EgressReason.MALFORMED_CLIENT_HELLO, m.why());
        } else {
            tls(ctx, ((ClientHello.Parsed) r).sni());
        }
    }

    private void handOverToHttp(ChannelHandlerContext ctx) {
        decided = true;
        ByteBuf first = buffered;
        buffered = null;
        // plain HTTP behaves as on the forward port: a client's FIN closes the connection
        ctx.channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, false);
        RequestPipeline.install(px, ctx.pipeline(), conn, null, true);
        ctx.pipeline().remove(this);
        ctx.pipeline().fireChannelRead(first);
    }

    /**
     * On the event loop: the decision is pure and needs no caller unless a caller fence answers
     * {@code caller-not-listed} (then it waits, without blocking, for the lookup started at accept);
     * only a DNS lookup moves to a worker thread.
     */
    private void tls(ChannelHandlerContext ctx, String rawSni) {
        // INVARIANT: no read while deciding, so nothing reaches this handler between the decision and the splice
        ctx.channel().config().setAutoRead(false);
        long start = System.nanoTime();
        int port = px.config().passthroughTlsOriginPort();
        String host = Hosts.normalise(rawSni);
        if (host == null || IpLiterals.isLiteral(host)) {
            refuse(ctx, rawSni, EgressReason.NO_SERVER_NAME, "a TLS connection on the passthrough port must name its host");
            return;
        }
        Decision d = decide(host, port, null);
        if (d.reason() == ReasonCode.CALLER_NOT_LISTED) {
            conn.whenCallerKnown(caller -> onLoop(ctx, () -> decided(ctx, host, port, decide(host, port, caller), start)));
            return;
        }
        decided(ctx, host, port, d, start);
    }

    private Decision decide(String host, int port, String caller) {
        return Decisions.connection(px, conn, EgressRequest.connection("https", host, port, host, caller));
    }

    /** Acts on the decision: refuse, or check the dial (a worker thread resolves a name not known yet). */
    private void decided(ChannelHandlerContext ctx, String host, int port, Decision d, long start) {
        if (!d.allowed()) {
            refused(host, port, d, EgressReason.of(d.reason()), start);
            ctx.close();
            return;
        }
        if (d.intercept() || d.transport() != Transport.DIRECT) {
            // an upstream host must be intercepted so its rules hold: never splice it blindly
            refused(host, port, d, EgressReason.ROUTED_UPSTREAM, start);
            ctx.close();
            return;
        }
        DialGuard.Outcome known = px.dialGuard().checkWithoutLookup(host);
        if (known != null) {
            dial(ctx, host, port, known, d, start);
            return;
        }
        try {
            px.blocking().next().execute(() -> {
                DialGuard.Outcome looked = px.dialGuard().check(host);
                ctx.executor().execute(() -> dial(ctx, host, port, looked, d, start));
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            ctx.close(); // shutting down
        }
    }

    private void dial(ChannelHandlerContext ctx, String host, int port, DialGuard.Outcome outcome, Decision d,
                      long start) {
        if (outcome instanceof DialGuard.Allowed allowed && !px.isSelf(allowed.address(), port)) {
            // no byte reaches the origin before the caller is known: until then the client waits for the
            // origin's answer, so its socket is still there to be found and the audit line names it
            conn.whenCallerKnown(caller -> onLoop(ctx, () -> splice(ctx, host, port, allowed.address(), d, start)));
        } else {
            refused(host, port, d, EgressReason.DIAL_REFUSED, start);
            ctx.close();
        }
    }

    private static void onLoop(ChannelHandlerContext ctx, Runnable task) {
        if (ctx.executor().inEventLoop()) {
            task.run();
        } else {
            ctx.executor().execute(task);
        }
    }

    /** On the client's event loop: dial the origin on the same loop and splice both ways. */
    private void splice(ChannelHandlerContext ctx, String host, int port, InetAddress address, Decision d, long start) {
        Channel client = ctx.channel();
        if (!client.isActive()) {
            forwarded(host, port, d, start, 0, 0);
            return;
        }
        AtomicLong in = new AtomicLong();
        AtomicLong out = new AtomicLong();
        Splice.Link link = new Splice.Link(in, out, px.metrics()::kernelSplice);
        AtomicBoolean audited = new AtomicBoolean();
        Runnable onClose = () -> {
            if (audited.compareAndSet(false, true)) {
                forwarded(host, port, d, start, in.get(), out.get());
            }
        };
        ChannelFuture f = originBootstrap(client, new Splice(client, out, px.metrics()::bytesOut, onClose, link))
                .connect(new InetSocketAddress(address, port));
        // the origin shares the client's event loop: this listener, the pipeline swap and both splices
        // run on one thread, so no byte can arrive between the swap and the splice
        f.addListener((ChannelFutureListener) cf -> {
            if (!cf.isSuccess()) {
                audited.set(true);
                refused(host, port, d, EgressReason.ORIGIN_UNREACHABLE, start);
                client.close();
                return;
            }
            px.channels().add(cf.channel());
            if (!client.isActive()) {
                cf.channel().close();
                return;
            }
            ByteBuf first = buffered;
            buffered = null;
            in.addAndGet(first.readableBytes());
            px.metrics().bytesIn(first.readableBytes());
            cf.channel().writeAndFlush(first);
            client.pipeline().replace(this, "splice", new Splice(cf.channel(), in, px.metrics()::bytesIn, onClose, link));
            if (inputEnded) {
                client.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE); // pass the early FIN on
            }
        });
    }

    /** The origin's side on the client's event loop, its bytes spliced to the client by {@code toClient}. */
    private Bootstrap originBootstrap(Channel client, Splice toClient) {
        return new Bootstrap().group(client.eventLoop()).channel(Transports.socketChannelLike(client))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) px.config().connectTimeout().toMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, Splice.WATER_MARK)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.config().setRecvByteBufAllocator(new ReadCounter()); // before the first read
                        ch.pipeline().addLast(new IdleStateHandler(0, 0, px.config().idleTimeout().toMillis(),
                                TimeUnit.MILLISECONDS));
                        ch.pipeline().addLast(toClient);
                    }
                });
    }

    private void refuse(ChannelHandlerContext ctx, String host, EgressReason reason, String detail) {
        decided = true;
        Decision d = Decision.deny(ReasonCode.INVALID_REQUEST, detail);
        refused(host == null ? "-" : Responses.safe(host), px.config().passthroughTlsOriginPort(), d, reason,
                System.nanoTime());
        ctx.close();
    }

    /** Audit lines are recorded once the caller is known, never waiting on an event loop for it. */
    private void refused(String host, int port, Decision d, EgressReason reason, long start) {
        new Exchange("passthrough", host, port, null, null, start)
                .recordWhenCallerKnown(px, conn, new Exchange.Refused(d, reason, 0, 0, 0));
    }

    private void forwarded(String host, int port, Decision d, long start, long in, long out) {
        new Exchange("passthrough", host, port, null, null, start)
                .recordWhenCallerKnown(px, conn, new Exchange.Forwarded(d, 0, in, out, null));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
        } else if (evt instanceof ChannelInputShutdownEvent) {
            inputEnded = true;
            if (!decided) {
                ctx.close(); // the first record can no longer complete
            }
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (buffered != null) {
            buffered.release();
            buffered = null;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

}
