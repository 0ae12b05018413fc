package dev.stockade.proxy.internal;

import dev.stockade.proxy.EgressReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The proxy's meters, in a Micrometer Prometheus registry served on the admin {@code GET /metrics}.
 * Micrometer is used directly: the proxy is a Netty pipeline without Micronaut, and nothing of a
 * framework sits in the traffic path. Meters are looked up once and cached, so the hot path is a
 * map lookup and an add.
 */
public final class ProxyMetrics {
    // one HELP text for both series of a name: Prometheus keeps only one
    private static final String BYTES =
            "bytes relayed, in: client to origin, out: origin to client (bodies, websocket frames, spliced bytes)";
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ConcurrentHashMap<String, Counter> decisions = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Timer> latency = new ConcurrentHashMap<>();
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final Counter reloadsValid;
    private final Counter reloadsInvalid;
    private final Counter halts;
    private final Counter kernelSplices;

    /**
     * @param openConnections the live count of client connections (a gauge reads it)
     * @param halted          whether the proxy is halted now
     * @param cachedLeaves    how many minted leaf certificates are cached
     */
    public ProxyMetrics(AtomicLong openConnections, BooleanSupplier halted, java.util.function.LongSupplier cachedLeaves) {
        Gauge.builder("stockade.proxy.connections.open", openConnections, AtomicLong::get)
                .description("client connections open now").strongReference(true).register(registry);
        Gauge.builder("stockade.proxy.halted", halted, (ToDoubleFunction<BooleanSupplier>) h -> h.getAsBoolean() ? 1 : 0)
                .description("1 while the proxy is halted")
                // INVARIANT: strong references, or the suppliers (lambdas held nowhere else) are collected and
                // the gauges read NaN
                .strongReference(true).register(registry);
        Gauge.builder("stockade.proxy.cached.leaf.certificates", cachedLeaves,
                        (ToDoubleFunction<java.util.function.LongSupplier>) java.util.function.LongSupplier::getAsLong)
                .description("interception leaf certificates cached").strongReference(true).register(registry);
        bytesIn = Counter.builder("stockade.proxy.bytes").tag("direction", "in").baseUnit("bytes")
                .description(BYTES).register(registry);
        bytesOut = Counter.builder("stockade.proxy.bytes").tag("direction", "out").baseUnit("bytes")
                .description(BYTES).register(registry);
        reloadsValid = Counter.builder("stockade.proxy.policy.reloads").tag("outcome", "valid")
                .description("policy reloads after start").register(registry);
        reloadsInvalid = Counter.builder("stockade.proxy.policy.reloads").tag("outcome", "invalid")
                .description("policy reloads after start").register(registry);
        halts = Counter.builder("stockade.proxy.halts").description("halts that closed the open connections")
                .register(registry);
        kernelSplices = Counter.builder("stockade.proxy.kernel.splices")
                .description("passthrough tunnel directions moved to splice(2) (native epoll transport)")
                .register(registry);
    }

    /** Counts one decision the proxy acted on (every audited decision and every judged websocket message). */
    public void decision(String listener, String verdict, EgressReason reason) {
        String key = listener + '\0' + verdict + '\0' + reason;
        Counter c = decisions.get(key);
        if (c == null) {
            c = decisions.computeIfAbsent(key, k -> Counter.builder("stockade.proxy.decisions")
                    .tag("listener", String.valueOf(listener)).tag("verdict", String.valueOf(verdict))
                    .tag("reason", reason == null ? "null" : reason.code()).description("decisions by verdict and reason")
                    .register(registry));
        }
        c.increment();
    }

    /** Records how long the decider took for one decision of {@code kind} (connection, request, frame). */
    public void decided(String kind, long startNanos) {
        Timer t = latency.get(kind);
        if (t == null) {
            t = latency.computeIfAbsent(kind, k -> Timer.builder("stockade.proxy.decision.latency").tag("kind", k)
                    .description("time spent in the decision program").register(registry));
        }
        t.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    /** Counts one tunnel direction handed to {@code splice(2)}. */
    public void kernelSplice() {
        kernelSplices.increment();
    }

    /** Bytes relayed from the client towards the origin. */
    public void bytesIn(long n) {
        if (n > 0) {
            bytesIn.increment(n);
        }
    }

    /** Bytes relayed from the origin towards the client. */
    public void bytesOut(long n) {
        if (n > 0) {
            bytesOut.increment(n);
        }
    }

    /** A policy reload after start, valid or not. */
    public void reload(boolean valid) {
        (valid ? reloadsValid : reloadsInvalid).increment();
    }

    /** A halt closed the open connections. */
    public void halt() {
        halts.increment();
    }

    /** The Prometheus text exposition format (0.0.4) of every meter. */
    public String scrape() {
        return registry.scrape();
    }

    /** Registers the gauge of idle kept-alive origin connections. */
    public void originPool(java.util.function.IntSupplier idle) {
        Gauge.builder("stockade.proxy.origin.pool.idle", idle,
                        (ToDoubleFunction<java.util.function.IntSupplier>) java.util.function.IntSupplier::getAsInt)
                .description("idle kept-alive origin connections in the pool").strongReference(true).register(registry);
    }
}
