package dev.stockade.proxy;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.proxy.dial.DialGuard;
import dev.stockade.proxy.internal.CallerResolver;
import dev.stockade.proxy.internal.CertificateAuthority;
import dev.stockade.proxy.internal.ConnectionInfo;
import dev.stockade.proxy.internal.PassthroughHandler;
import dev.stockade.proxy.internal.ProxyContext;
import dev.stockade.proxy.internal.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The running egress proxy: the forward-proxy listener (plain HTTP and CONNECT with TLS interception),
 * the optional passthrough listener for direct transport, and the optional loopback admin endpoint
 * (halt, health, metrics). Start with {@link #start}; close to stop.
 */
public final class ProxyServer implements AutoCloseable {

    private final ProxyContext px;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    /** The passthrough listener's own event loops when it runs on another transport than the forward port. */
    private final EventLoopGroup passLoops;
    private final DefaultEventExecutorGroup blocking;
    private final List<Channel> listeners = new ArrayList<>();
    private final HttpServer admin;
    private final ScheduledFuture<?> haltWatch;
    private final int port;
    private final int passthroughPort;

    private ProxyServer(ProxyContext px, EventLoopGroup boss, EventLoopGroup workers, EventLoopGroup passLoops,
                        DefaultEventExecutorGroup blocking,
                        int port, int passthroughPort, HttpServer admin, ScheduledFuture<?> haltWatch,
                        List<Channel> listeners) {
        this.px = px;
        this.boss = boss;
        this.workers = workers;
        this.passLoops = passLoops;
        this.blocking = blocking;
        this.port = port;
        this.passthroughPort = passthroughPort;
        this.admin = admin;
        this.haltWatch = haltWatch;
        this.listeners.addAll(listeners);
    }

    /**
     * Starts the listeners.
     *
     * @param config      bindings and limits
     * @param enforcement the current enforcement (the core's program); read for every decision so a reload swaps
     *                    it atomically
     * @param audit       where audit lines go
     * @param credentials credentials to inject
     */
    public static ProxyServer start(ProxyConfig config, Supplier<Enforcement> enforcement, AuditSink audit,
                                    CredentialStore credentials) throws IOException {
        return start(config, enforcement, audit, credentials, null);
    }

    /**
     * Starts the listeners for several sandboxes: each forward-proxy connection must name its sandbox
     * by token in {@code Proxy-Authorization} (407 otherwise) and is decided by that sandbox's
     * policies; {@code enforcement} serves the passthrough listener. The connection cap applies per sandbox.
     */
    public static ProxyServer start(ProxyConfig config, Supplier<Enforcement> enforcement, AuditSink audit,
                                    CredentialStore credentials, SandboxRegistry sandboxes) throws IOException {
        CertificateAuthority ca = CertificateAuthority.loadOrCreate(config.dataDir(), config.leafCacheSize());
        DialGuard guard = new DialGuard(config.allowLoopbackOriginsUnsafe(), config.allowPrivateRanges(),
                config.allowPrivateHosts(), config.extraDenyCidrs(), config.resolveOverrides());
        SslContext originTls = OriginTrust.context(config.extraTrustPem());
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        // the forward port stays on NIO; the passthrough listener takes epoll where it loads (kernel splice)
        Transports passIo = config.passthroughPort() >= 0 ? Transports.of(config.passthroughIo()) : Transports.NIO;
        EventLoopGroup passLoops = passIo == Transports.NIO ? null : new MultiThreadIoEventLoopGroup(passIo.ioHandlers());
        DefaultEventExecutorGroup blocking = new DefaultEventExecutorGroup(32);
        ChannelGroup channels = new DefaultChannelGroup("stockade-proxy", GlobalEventExecutor.INSTANCE);
        ProxyContext px = new ProxyContext(config, enforcement, audit, credentials, ca, guard, CallerResolver.linux(),
                originTls, channels, blocking, sandboxes);
        countReloads(px, enforcement, sandboxes);
        List<Channel> bound = new ArrayList<>();
        try {
            bound.add(bind(px, boss, workers, Transports.NIO, config.port(), false));
            if (config.passthroughPort() >= 0) {
                bound.add(passLoops == null
                        ? bind(px, boss, workers, Transports.NIO, config.passthroughPort(), true)
                        : bind(px, passLoops, passLoops, passIo, config.passthroughPort(), true));
            }
            java.util.Set<Integer> ports = new java.util.HashSet<>();
            bound.forEach(c -> ports.add(port(c)));
            ScheduledFuture<?> watch = config.haltFile() == null ? null : watchHaltFile(px, workers, config.haltFile());
            ProxyServer[] self = new ProxyServer[1];
            HttpServer adminServer = config.adminPort() >= 0 ? AdminEndpoint.start(config.adminPort(), () -> self[0]) : null;
            if (adminServer != null) {
                ports.add(adminServer.getAddress().getPort());
            }
            px.ownPorts(ports);
            self[0] = new ProxyServer(px, boss, workers, passLoops, blocking, port(bound.get(0)),
                    bound.size() > 1 ? port(bound.get(1)) : -1, adminServer, watch, bound);
            return self[0];
        } catch (IOException | RuntimeException e) {
            bound.forEach(Channel::close);
            for (EventExecutorGroup g : new EventExecutorGroup[] {boss, workers, passLoops, blocking, px.callerLookups()}) {
                if (g != null) {
                    g.shutdownGracefully(0, 1, TimeUnit.SECONDS);
                }
            }
            throw e instanceof IOException io ? io : new IOException("cannot start the proxy: " + e.getMessage(), e);
        }
    }

    private static int port(Channel bound) {
        return ((InetSocketAddress) bound.localAddress()).getPort();
    }

    /** Reloads after start are counted wherever policies come from files (the sandboxes' too). */
    private static void countReloads(ProxyContext px, Supplier<Enforcement> enforcement, SandboxRegistry sandboxes) {
        List<PolicySource> sources = new ArrayList<>();
        if (enforcement instanceof PolicySource source) {
            sources.add(source);
        }
        if (sandboxes != null) {
            sources.addAll(sandboxes.policySources());
        }
        sources.forEach(source -> source.onReload(load -> {
            px.metrics().reload(load.valid());
            // connections opened under the old program never serve the new one
            px.originPool().clear();
        }));
    }

    /** The file flag halts as the admin switch does: open tunnels close at once. */
    private static ScheduledFuture<?> watchHaltFile(ProxyContext px, EventLoopGroup loops, Path haltFile) {
        boolean[] was = {false};
        return loops.next().scheduleAtFixedRate(() -> {
            boolean now = Files.exists(haltFile);
            if (now && !was[0]) {
                px.originPool().clear();
                px.channels().close().addListener(f -> px.haltApplied());
            }
            was[0] = now;
        }, 200, 200, TimeUnit.MILLISECONDS);
    }

    private static Channel bind(ProxyContext px, EventLoopGroup boss, EventLoopGroup workers, Transports io, int port,
                                boolean passthrough) throws IOException {
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(io.serverChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        int cap = px.config().maxConnectionsPerSandbox();
                        // INVARIANT: check and count in one step, so concurrent accepts cannot pass the cap
                        long open = px.connectionOpened();
                        if (cap > 0 && open > cap && px.sandboxes() == null) {
                            px.connectionClosed();
                            ch.close();
                            return;
                        }
                        ch.closeFuture().addListener(f -> px.connectionClosed());
                        px.channels().add(ch);
                        ConnectionInfo conn = new ConnectionInfo(px, ch);
                        ch.attr(ConnectionInfo.KEY).set(conn);
                        ch.pipeline().addLast("idle", new IdleStateHandler(0, 0,
                                px.config().idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
                        if (passthrough) {
                            // on the event loop: the handler decides there and moves only a DNS lookup to px.blocking()
                            ch.pipeline().addLast("passthrough", new PassthroughHandler(px, conn));
                        } else {
                            dev.stockade.proxy.internal.RequestPipeline.install(px, ch.pipeline(), conn, null);
                        }
                    }
                });
        try {
            return b.bind(new InetSocketAddress(px.config().bindAddress(), port)).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding port " + port, e);
        } catch (RuntimeException e) {
            throw new IOException("cannot bind " + px.config().bindAddress().getHostAddress() + ":" + port + ": "
                    + e.getMessage(), e);
        }
    }

    // ---- control ----------------------------------------------------------------------------------------

    /** Halts: every new request and connection is denied, and open connections and tunnels close now. */
    public void halt() {
        px.halted(true);
        px.originPool().clear();
        px.channels().close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        px.haltApplied();
    }

    /**
     * Closes the open client connections (and so their tunnels, sockets and origin connections) of the sandboxes
     * {@code sandboxNames} selects, e.g. those of a halted organization; other sandboxes' traffic goes on. Returns how
     * many connections were closed.
     */
    public int closeSandboxConnections(java.util.function.Predicate<String> sandboxNames) {
        int closed = 0;
        for (io.netty.channel.Channel ch : px.channels()) {
            ConnectionInfo conn = ch.attr(ConnectionInfo.KEY).get();
            String name = conn == null ? null : conn.identifiedSandbox();
            if (name != null && sandboxNames.test(name)) {
                ch.close();
                closed++;
            }
        }
        px.originPool().clear();
        return closed;
    }

    /**
     * Waits until a halt (admin or file flag) has closed the open connections more than {@code seen}
     * times in all; returns the count. Lets operators' tooling and tests know the halt took effect.
     */
    public long awaitHaltApplied(long seen, long millis) throws InterruptedException {
        return px.awaitHaltApplied(seen, millis);
    }

    /** How many times a halt has closed the open connections. */
    public long haltsApplied() {
        return px.haltsApplied();
    }

    /** Lifts an admin halt (the halt file, if present, still halts). */
    public void resume() {
        px.halted(false);
    }

    /** Whether the proxy is halted. */
    public boolean halted() {
        return px.isHalted();
    }

    /** The forward-proxy port. */
    public int port() {
        return port;
    }

    /** The passthrough port, -1 when disabled. */
    public int passthroughPort() {
        return passthroughPort;
    }

    /** The admin port, -1 when disabled. */
    public int adminPort() {
        return admin == null ? -1 : admin.getAddress().getPort();
    }

    /** The metrics in Prometheus text format, as the admin endpoint serves them. */
    String metricsText() {
        return px.metrics().scrape();
    }

    /** Path of the exported interception CA certificate (PEM). */
    public Path caCertificate() {
        return px.ca().certificatePath();
    }

    @Override
    public void close() {
        if (haltWatch != null) {
            haltWatch.cancel(false);
        }
        if (admin != null) {
            admin.stop(0);
        }
        listeners.forEach(c -> c.close().awaitUninterruptibly());
        px.originPool().clear();
        px.channels().close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        if (passLoops != null) {
            passLoops.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        }
        blocking.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        px.callerLookups().shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }
}
