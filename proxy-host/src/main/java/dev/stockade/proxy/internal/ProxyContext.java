package dev.stockade.proxy.internal;

import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.graphql.GraphqlDocumentCache;
import dev.stockade.policy.graphql.GraphqlLimits;
import dev.stockade.policy.graphql.GraphqlSummaryReader;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.AuditSink;
import dev.stockade.proxy.CredentialStore;
import dev.stockade.proxy.ProxyConfig;
import dev.stockade.proxy.SandboxRegistry;
import dev.stockade.proxy.dial.DialGuard;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.EventExecutorGroup;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What every connection handler shares: configuration, the current enforcement, audit, credentials, the
 * CA, the dial guard, caller resolution, halt state and counters. Thread-safe.
 */
public final class ProxyContext {
    private final ProxyConfig config;
    private final Supplier<Enforcement> enforcement;
    private final AuditSink audit;
    private final CredentialStore credentials;
    private final CertificateAuthority ca;
    private final DialGuard dialGuard;
    private final CallerResolver callers;
    private final SslContext originTls;
    private final ChannelGroup channels;
    private final EventExecutorGroup blocking;
    /**
     * Where callers are looked up, apart from {@link #blocking} so a lookup never queues behind a slow
     * DNS answer: it must finish while the client still holds its socket. Shut down with the proxy.
     */
    private final EventExecutorGroup callerLookups = new io.netty.util.concurrent.DefaultEventExecutorGroup(2,
            new io.netty.util.concurrent.DefaultThreadFactory("stockade-caller", true));
    private final AtomicBoolean halted = new AtomicBoolean();
    private final AtomicLong openConnections = new AtomicLong();
    /** Decisions, latency, bytes, connections, reloads and halts, served on the admin {@code /metrics}. */
    private final ProxyMetrics metrics;
    /** Kept-alive origin connections, reused by later requests of the same sandbox to the same origin. */
    private final OriginPool originPool;
    /** Sandboxes identified by Proxy-Authorization; {@code null} when the proxy serves one sandbox. */
    private final SandboxRegistry sandboxes;
    private final java.util.concurrent.ConcurrentHashMap<String, AtomicLong> sandboxConnections =
            new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Reads what a GraphQL fence judged for the audit line, under the limits every program here is compiled with
     * ({@code CompileOptions.defaults()}), so it reads exactly what the fences read. Its documents are kept apart from
     * the programs' (which the core does not expose), bounded at {@link #SUMMARY_DOCUMENTS_BYTES}.
     */
    private final GraphqlSummaryReader graphqlSummaries = GraphqlSummaryReader.of(GraphqlLimits.defaults(),
            GraphqlDocumentCache.bounded(SUMMARY_DOCUMENTS_BYTES));
    /** The bound of the summary reader's document cache: 16 MiB of estimated syntax trees. */
    static final long SUMMARY_DOCUMENTS_BYTES = 16L << 20;

    public ProxyContext(ProxyConfig config, Supplier<Enforcement> enforcement, AuditSink audit, CredentialStore credentials,
                        CertificateAuthority ca, DialGuard dialGuard, CallerResolver callers, SslContext originTls,
                        ChannelGroup channels, EventExecutorGroup blocking, SandboxRegistry sandboxes) {
        this.sandboxes = sandboxes;
        this.config = config;
        this.enforcement = enforcement;
        this.audit = audit;
        this.credentials = credentials;
        this.ca = ca;
        this.dialGuard = dialGuard;
        this.callers = callers;
        this.originTls = originTls;
        this.channels = channels;
        this.blocking = blocking;
        this.originPool = new OriginPool(config.originPoolIdle(), config.originPoolPerKey(), config.originPoolMax());
        this.metrics = new ProxyMetrics(openConnections, this::isHalted, ca::cachedLeaves);
        metrics.originPool(originPool::idleCount);
    }

    // What the handlers use; the fields stay private so that only this class changes shared state.

    public ProxyConfig config() {
        return config;
    }

    public Supplier<Enforcement> enforcement() {
        return enforcement;
    }

    public AuditSink audit() {
        return audit;
    }

    public CredentialStore credentials() {
        return credentials;
    }

    public CertificateAuthority ca() {
        return ca;
    }

    public DialGuard dialGuard() {
        return dialGuard;
    }

    public CallerResolver callers() {
        return callers;
    }

    public SslContext originTls() {
        return originTls;
    }

    public ChannelGroup channels() {
        return channels;
    }

    public EventExecutorGroup blocking() {
        return blocking;
    }

    public EventExecutorGroup callerLookups() {
        return callerLookups;
    }

    /** Reads the GraphQL operations a fence judged, for audit lines. */
    public GraphqlSummaryReader graphqlSummaries() {
        return graphqlSummaries;
    }

    public ProxyMetrics metrics() {
        return metrics;
    }

    public OriginPool originPool() {
        return originPool;
    }

    public SandboxRegistry sandboxes() {
        return sandboxes;
    }

    /** Sets or lifts the halt switch. */
    public void halted(boolean on) {
        halted.set(on);
    }

    /** Counts a connection accepted; returns the number now open. */
    public long connectionOpened() {
        return openConnections.incrementAndGet();
    }

    public void connectionClosed() {
        openConnections.decrementAndGet();
    }

    /** The count of open connections of sandbox {@code name}. */
    public AtomicLong sandboxConnections(String name) {
        return sandboxConnections.computeIfAbsent(name, k -> new AtomicLong());
    }

    /** Whether the organization is halted (admin switch or the halt file). */
    public boolean isHalted() {
        return halted.get() || (config.haltFile() != null && java.nio.file.Files.exists(config.haltFile()));
    }

    private long haltsApplied;

    /** Records that a halt closed the open connections. */
    public synchronized void haltApplied() {
        haltsApplied++;
        metrics.halt();
        notifyAll();
    }

    /** How many halts closed the open connections. */
    public synchronized long haltsApplied() {
        return haltsApplied;
    }

    /** Waits (bounded) until more than {@code seen} halts were applied. */
    public synchronized long awaitHaltApplied(long seen, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (haltsApplied <= seen) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        return haltsApplied;
    }

    /** The ports the proxy listens on, set once bound. */
    private volatile java.util.Set<Integer> ownPorts = java.util.Set.of();

    /** Records the ports the proxy listens on, once bound. */
    public void ownPorts(java.util.Set<Integer> ports) {
        ownPorts = java.util.Set.copyOf(ports);
    }

    /**
     * Whether dialing {@code address:port} would reach this proxy itself, its admin listener included:
     * a request loop, or an agent halting the proxy through it. Addresses are compared in one canonical
     * form (IPv4-mapped, IPv4-compatible and NAT64 forms unwrapped), and any loopback, unspecified or own
     * interface address counts as this host, whatever the flags (loopback origins allowed for tests, the
     * bind address).
     */
    public boolean isSelf(java.net.InetAddress address, int port) {
        if (!ownPorts.contains(port)) {
            return false;
        }
        java.net.InetAddress a = DialGuard.unwrap(address);
        java.net.InetAddress bind = DialGuard.unwrap(config.bindAddress());
        return a.isLoopbackAddress() || a.isAnyLocalAddress() || a.equals(bind) || dialGuard.isOwn(a);
    }

    /** Writes an audit line; a failing sink never breaks the traffic path. */
    public void record(AuditEvent e) {
        metrics.decision(e.listener(), e.verdict(), e.reason());
        try {
            audit.record(e);
        } catch (RuntimeException ex) {
            System.err.println("stockade-proxy: audit sink failed: " + ex.getClass().getSimpleName());
        }
    }
}
