package dev.stockade.api.clusters;

import dev.stockade.testing.ThrowawayPki;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdyVersion;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A kubelet's streaming endpoint in its SPDY/3.1 form (kubectl's exec, attach and port-forward before 1.29), as the
 * API server reaches it: TLS with a certificate of the API server's CA for 127.0.0.1, the API server's kubelet-client
 * certificate required. It takes the upgrade of {@code /exec/{ns}/{pod}/{container}}, {@code /attach/...} and
 * {@code /portForward/{ns}/{pod}} as the kubelet does: {@code Upgrade: SPDY/3.1}, the stream protocol negotiated over
 * {@code X-Stream-Protocol-Version} (none offered: 400; none in common: 403 listing the accepted ones), at least one of
 * the query's {@code stdin}, {@code stdout}, {@code stderr} set to {@code 1}; then Netty's SPDY codec carries the
 * session ({@link SpdyExecSession}, {@link SpdyPortForwardSession}). Anything else is answered 400. attach joins a
 * container's main process started with {@link #run}.
 */
final class KubeletSpdyStandIn implements Kubelet {
    static final String UPGRADE = "SPDY/3.1";
    static final String PROTOCOL_HEADER = "X-Stream-Protocol-Version";
    static final List<String> EXEC_PROTOCOLS = List.of("v4.channel.k8s.io");
    static final List<String> PORT_FORWARD_PROTOCOLS = List.of("portforward.k8s.io");

    /** The SPDY upgrades the API server sent that were switched: the request line's target. */
    final List<String> calls = new CopyOnWriteArrayList<>();
    private final Map<String, StandInProcess> containers = new ConcurrentHashMap<>();
    private final EventLoopGroup loop = new NioEventLoopGroup(2);
    private final JdkSslContext tls;
    private Channel server;

    private KubeletSpdyStandIn(ThrowawayPki pki) {
        var identity = pki.issue("kubelet-spdy-stand-in", "/CN=loopback-node", ThrowawayPki.Use.SERVER,
                List.of("127.0.0.1"), List.of());
        tls = new JdkSslContext(pki.sslContext(identity), false, null, IdentityCipherSuiteFilter.INSTANCE, null,
                ClientAuth.REQUIRE, null, false);
    }

    /** Starts listening on a free loopback port; returns once it listens. */
    static KubeletSpdyStandIn start(ThrowawayPki pki) throws InterruptedException {
        KubeletSpdyStandIn kubelet = new KubeletSpdyStandIn(pki);
        kubelet.server = new ServerBootstrap().group(kubelet.loop).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("tls", kubelet.tls.newHandler(ch.alloc()))
                                .addLast("http", new HttpServerCodec())
                                .addLast("aggregate", new HttpObjectAggregator(64 * 1024))
                                .addLast("upgrade", kubelet.new Upgrade());
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        return kubelet;
    }

    /**
     * Starts the main process of container {@code container} of pod {@code ns/pod}, which attach sessions join; its
     * stdin stays open until the first attach that sends stdin ends it ({@code stdinOnce}).
     */
    StandInProcess run(String ns, String pod, String container, List<String> command) throws java.io.IOException {
        StandInProcess main = StandInProcess.start(command, null);
        containers.put(ns + "/" + pod + "/" + container, main);
        return main;
    }

    @Override
    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public List<String> calls() {
        return calls;
    }

    @Override
    public void close() throws InterruptedException {
        containers.values().forEach(StandInProcess::destroy);
        server.close().await(5, TimeUnit.SECONDS);
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    /** Answers the upgrade request, then hands the connection to the SPDY session it asked for. */
    private final class Upgrade extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            QueryStringDecoder uri = new QueryStringDecoder(req.uri());
            String[] path = uri.path().split("/"); // "", exec, ns, pod, container
            boolean forward = path.length >= 4 && path[1].equals("portForward");
            boolean exec = path.length >= 5 && (path[1].equals("exec") || path[1].equals("attach"));
            if (!UPGRADE.equalsIgnoreCase(req.headers().get(HttpHeaderNames.UPGRADE))
                    || !req.headers().containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)) {
                answer(ctx, HttpResponseStatus.BAD_REQUEST, "this kubelet stand-in serves SPDY/3.1 upgrades only");
                return;
            }
            if (!forward && !exec) {
                answer(ctx, HttpResponseStatus.NOT_FOUND, "no exec, attach or portForward path: " + uri.path());
                return;
            }
            List<String> offered = req.headers().getAll(PROTOCOL_HEADER).stream()
                    .flatMap(v -> Arrays.stream(v.split(","))).map(String::strip).toList();
            List<String> accepted = forward ? PORT_FORWARD_PROTOCOLS : EXEC_PROTOCOLS;
            if (offered.isEmpty()) {
                answer(ctx, HttpResponseStatus.BAD_REQUEST, "unable to upgrade: " + PROTOCOL_HEADER + " is required");
                return;
            }
            Optional<String> protocol = offered.stream().filter(accepted::contains).findFirst();
            if (protocol.isEmpty()) {
                FullHttpResponse refused = text(HttpResponseStatus.FORBIDDEN, "unable to upgrade: unable to negotiate"
                        + " protocol: client supports " + offered + ", server accepts " + accepted);
                accepted.forEach(p -> refused.headers().add("X-Accepted-Stream-Protocol-Versions", p));
                ctx.writeAndFlush(refused).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            Map<String, List<String>> query = uri.parameters();
            ChannelHandler session;
            if (forward) {
                session = new SpdyPortForwardSession(path[2] + "/" + path[3]);
            } else {
                SpdyExecSession.Options options = new SpdyExecSession.Options(flag(query, "input"),
                        flag(query, "output"), flag(query, "error"), flag(query, "tty"));
                if (options.streams() == 1 + (options.tty() ? 1 : 0)) {
                    answer(ctx, HttpResponseStatus.BAD_REQUEST, "you must specify at least 1 of stdin, stdout, stderr");
                    return;
                }
                String key = path[2] + "/" + path[3] + "/" + path[4];
                SpdyExecSession.Target target = path[1].equals("attach")
                        ? new SpdyExecSession.Attach(() -> Optional.ofNullable(containers.get(key)))
                        : new SpdyExecSession.Exec(query.getOrDefault("command", List.of()));
                if (target instanceof SpdyExecSession.Exec e && e.command().isEmpty()) {
                    answer(ctx, HttpResponseStatus.BAD_REQUEST, "exec needs a command");
                    return;
                }
                session = new SpdyExecSession(options, target);
            }
            calls.add(req.uri());
            switchToSpdy(ctx, protocol.get(), session);
        }

        /** Writes the 101, then puts the SPDY codec and the session where the HTTP handlers were. */
        private void switchToSpdy(ChannelHandlerContext ctx, String protocol, ChannelHandler session) {
            FullHttpResponse switching = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.SWITCHING_PROTOCOLS);
            switching.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE)
                    .set(HttpHeaderNames.UPGRADE, UPGRADE).set(PROTOCOL_HEADER, protocol);
            ctx.writeAndFlush(switching);
            var pipeline = ctx.pipeline();
            pipeline.addAfter("http", "spdy", new SpdyFrameCodec(SpdyVersion.SPDY_3_1))
                    .addAfter("spdy", "session", session);
            pipeline.remove("aggregate");
            pipeline.remove(this);
            pipeline.remove("http"); // bytes it still held go on to the SPDY codec
        }

        /** The kubelet's query flags: the API server sends {@code 1} for a requested stream. */
        private static boolean flag(Map<String, List<String>> query, String name) {
            return query.getOrDefault(name, List.of()).contains("1");
        }
    }

    private static void answer(ChannelHandlerContext ctx, HttpResponseStatus status, String message) {
        ctx.writeAndFlush(text(status, message)).addListener(ChannelFutureListener.CLOSE);
    }

    private static FullHttpResponse text(HttpResponseStatus status, String message) {
        byte[] body = message.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length).set(HttpHeaderNames.CONNECTION, "close");
        return r;
    }
}
