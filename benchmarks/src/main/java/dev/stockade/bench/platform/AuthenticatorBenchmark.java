package dev.stockade.bench.platform;

import dev.stockade.api.kernel.identity.Authenticator;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.identity.TokenFormat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-request cost of authentication in the platform host: {@link Authenticator#authenticate} on a token it
 * has cached (what every request after the first pays), next to the SHA-256 of the token alone (the floor: the cache
 * is keyed by it) and to a cache miss (the database look-up the cache saves). SampleTime, so JMH reports p50/p99.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class AuthenticatorBenchmark {
    private PlatformFixture platform;
    private Authenticator authenticator;
    private String token;
    private byte[] hash;

    @Setup
    public void start() throws Exception {
        platform = new PlatformFixture();
        authenticator = platform.bean(Authenticator.class);
        token = platform.ownerToken();
        hash = TokenFormat.hash(token);
        authenticator.authenticate(token); // cached from here on (until the cache's TTL)
    }

    @TearDown
    public void stop() throws Exception {
        platform.close();
    }

    @Benchmark
    public Identity cachedToken() {
        return authenticator.authenticate(token);
    }

    @Benchmark
    public byte[] sha256Only() {
        return TokenFormat.hash(token);
    }

    @Benchmark
    public Identity cacheMiss() {
        authenticator.forget(hash);
        return authenticator.authenticate(token);
    }
}
