package dev.stockade.bench.proxy;

import dev.stockade.proxy.internal.CallerResolver;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The proxy's caller lookup for one live loopback connection: the socket found by one netlink
 * {@code sock_diag} request ({@code CallerResolver.linux()}) against the baseline that reads
 * {@code /proc/net/tcp{,6}} ({@code linuxTablesOnly()}), with no and with 2,000 closed connections
 * waiting out TIME_WAIT (the kernel lists those too). The process holding the socket is this JVM, so
 * after the first call the fd cache answers that part with one {@code readlink}: the figures are the
 * socket lookup plus that check. Linux only. The whole run stays within TIME_WAIT's 60 s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CallerLookupBenchmark {
    @Param({"0", "2000"})
    int timeWait;

    private ServerSocket server;
    private Socket client;
    private Socket accepted;
    private InetSocketAddress clientEnd;
    private InetSocketAddress proxyEnd;
    private CallerResolver netlink;
    private CallerResolver tables;

    @Setup(Level.Trial)
    public void connect() throws IOException {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        server = new ServerSocket(0, 4096, loopback);
        for (int i = 0; i < timeWait; i++) {
            // the client closes first, so its end waits out TIME_WAIT
            try (Socket c = new Socket(loopback, server.getLocalPort()); Socket a = server.accept()) {
                c.close();
            }
        }
        client = new Socket(loopback, server.getLocalPort());
        accepted = server.accept();
        clientEnd = (InetSocketAddress) accepted.getRemoteSocketAddress();
        proxyEnd = (InetSocketAddress) accepted.getLocalSocketAddress();
        netlink = CallerResolver.linux();
        tables = CallerResolver.linuxTablesOnly();
        if (!netlink.usesNetlink() || netlink.resolve(clientEnd, proxyEnd) == null
                || tables.resolve(clientEnd, proxyEnd) == null) {
            throw new IllegalStateException("caller lookup does not work here (Linux with netlink sock_diag needed)");
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        accepted.close();
        client.close();
        server.close();
    }

    @Benchmark
    public String netlinkSockDiag() {
        return netlink.resolve(clientEnd, proxyEnd);
    }

    @Benchmark
    public String procNetTcpBaseline() {
        return tables.resolve(clientEnd, proxyEnd);
    }
}
