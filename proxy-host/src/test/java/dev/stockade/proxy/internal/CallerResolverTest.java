package dev.stockade.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Caller resolution over a fake {@code /proc} tree: the inode cache, its staleness check, the order of pids. */
class CallerResolverTest {
    private static final long SELF = 900;
    private static final InetSocketAddress PROXY = new InetSocketAddress(loopback(), 3128);

    @TempDir
    Path proc;
    private final List<String> tcp = new ArrayList<>();

    @BeforeEach
    void netDir() throws IOException {
        Files.createDirectories(proc.resolve("net"));
        writeTables();
    }

    @Test
    void resolvesTheProcessHoldingTheClientSocket() throws IOException {
        process(10, "/usr/bin/curl");
        connection(40001, 1001);
        fd(10, 3, "socket:[1001]");
        fd(10, 4, "/dev/null");

        assertThat(new CallerResolver(proc, SELF).resolve(client(40001), PROXY)).isEqualTo("/usr/bin/curl");
    }

    @Test
    void aBurstFromOneProcessCostsOneDirectoryReadNotOnePerConnection() throws IOException {
        process(10, "/usr/bin/curl");
        for (int i = 0; i < 5; i++) {
            connection(40001 + i, 1001 + i);
            fd(10, 3 + i, "socket:[" + (1001 + i) + "]");
        }
        CallerResolver r = new CallerResolver(proc, SELF);

        for (int i = 0; i < 5; i++) {
            assertThat(r.resolve(client(40001 + i), PROXY)).isEqualTo("/usr/bin/curl");
        }
        assertThat(r.directoryReads()).isEqualTo(1);
    }

    @Test
    void newSocketsOfThePreviousCallerAreFoundAboveItsHighestFdWithoutAFullRead() throws IOException {
        process(10, "/usr/bin/curl");
        process(11, "/usr/bin/other");
        fd(11, 3, "socket:[7777]");
        connection(40001, 1001);
        fd(10, 3, "socket:[1001]");
        CallerResolver r = new CallerResolver(proc, SELF);
        assertThat(r.resolve(client(40001), PROXY)).isEqualTo("/usr/bin/curl");
        long reads = r.directoryReads();

        connection(40002, 1002);
        fd(10, 4, "socket:[1002]");
        assertThat(r.resolve(client(40002), PROXY)).isEqualTo("/usr/bin/curl");
        assertThat(r.directoryReads()).isEqualTo(reads);
    }

    @Test
    void aStaleCacheEntryNeverNamesTheWrongExecutable() throws IOException {
        process(10, "/usr/bin/curl");
        connection(40001, 1001);
        connection(40002, 1002);
        fd(10, 3, "socket:[1001]");
        fd(10, 4, "socket:[1002]");
        CallerResolver r = new CallerResolver(proc, SELF);
        assertThat(r.resolve(client(40001), PROXY)).isEqualTo("/usr/bin/curl"); // caches 1002 -> pid 10, fd 4

        // pid 10 exits and is recycled by another program whose fd 4 is another socket; 1002 moved to wget
        deleteTree(proc.resolve("10"));
        process(10, "/usr/bin/nc");
        fd(10, 4, "socket:[5555]");
        process(20, "/usr/bin/wget");
        fd(20, 9, "socket:[1002]");

        assertThat(r.resolve(client(40002), PROXY)).isEqualTo("/usr/bin/wget");
    }

    @Test
    void aSocketNobodyHoldsAnyMoreIsUnknown() throws IOException {
        process(10, "/usr/bin/curl");
        connection(40001, 1001);
        connection(40002, 1002);
        fd(10, 3, "socket:[1001]");
        fd(10, 4, "socket:[1002]");
        CallerResolver r = new CallerResolver(proc, SELF);
        assertThat(r.resolve(client(40001), PROXY)).isEqualTo("/usr/bin/curl");

        Files.delete(proc.resolve("10/fd/4"));
        fd(10, 4, "socket:[1003]");
        assertThat(r.resolve(client(40002), PROXY)).isNull();
    }

    @Test
    void theProxysOwnProcessIsTriedLastButStillFound() throws IOException {
        process(10, "/usr/bin/curl");
        fd(10, 3, "socket:[4242]");
        process(SELF, "/usr/lib/jvm/bin/java");
        connection(40001, 1001);
        fd(SELF, 3, "socket:[1001]");
        CallerResolver r = new CallerResolver(proc, SELF);

        assertThat(r.resolve(client(40001), PROXY)).isEqualTo("/usr/lib/jvm/bin/java");
        // pid 10 was read before the proxy's own (its socket got cached on the way)
        assertThat(r.directoryReads()).isEqualTo(2);
    }

    @Test
    void aNewlyStartedClientIsFoundBeforeTheLongLivedProcessesAreRead() throws IOException {
        for (int pid = 10; pid < 40; pid++) {
            process(pid, "/usr/sbin/daemon" + pid);
            fd(pid, 3, "socket:[" + (7000 + pid) + "]");
        }
        process(4321, "/usr/bin/curl"); // the newest process: the highest pid
        connection(40001, 1001);
        fd(4321, 5, "socket:[1001]");
        CallerResolver r = new CallerResolver(proc, SELF);

        assertThat(r.resolve(client(40001), PROXY)).isEqualTo("/usr/bin/curl");
        assertThat(r.directoryReads()).isEqualTo(1);
    }

    @Test
    void afterAPidWrapTheProcessesStartedSinceAreReadFirst() throws IOException {
        for (int pid = 30000; pid < 30020; pid++) { // long-lived, from before the kernel's pids wrapped
            process(pid, "/usr/sbin/daemon" + pid);
            fd(pid, 3, "socket:[" + pid + "]");
        }
        process(12, "/usr/bin/old");
        fd(12, 3, "socket:[12]");
        process(350, "/usr/bin/curl");
        connection(40001, 1001);
        fd(350, 5, "socket:[1001]");
        Files.writeString(proc.resolve("loadavg"), "0.75 1.54 2.03 1/141 351\n"); // 351: the last pid handed out
        CallerResolver r = new CallerResolver(proc, SELF);

        assertThat(r.resolve(client(40001), PROXY)).isEqualTo("/usr/bin/curl");
        assertThat(r.directoryReads()).isEqualTo(1);
    }

    @Test
    void ipv6TableAndNoMatchingLine() throws IOException {
        process(10, "/usr/bin/curl");
        fd(10, 3, "socket:[3003]");
        Files.writeString(proc.resolve("net/tcp6"), "  sl  local_address remote_address st tx_queue rx_queue tr tm->when retrnsmt uid timeout inode\n"
                + "   0: 0000000000000000FFFF00000100007F:9C41 0000000000000000FFFF00000100007F:0C38 01 00000000:00000000 00:00000000 00000000  1000        0 3003 1 0000000000000000 20 4 30 10 -1\n");
        CallerResolver r = new CallerResolver(proc, SELF);

        assertThat(r.resolve(client(40001), PROXY)).isEqualTo("/usr/bin/curl");
        assertThat(r.resolve(client(40009), PROXY)).isNull();
    }

    @Test
    void matchSplitsFieldsByHandAndChecksPortsAndAddresses() {
        String line = "   3: 0100007F:9C41 0100007F:0C38 01 00000000:00000000 00:00000000 00000000  1000        0 1001 1 0";
        assertThat(ProcNetTcp.match(line, loopback(), 40001, loopback(), 3128)).isEqualTo(1001);
        assertThat(ProcNetTcp.match(line, loopback(), 40002, loopback(), 3128)).isEqualTo(-1);
        assertThat(ProcNetTcp.match(line, loopback(), 40001, loopback(), 3129)).isEqualTo(-1);
        assertThat(ProcNetTcp.match("   3: 0100007F:9C41", loopback(), 40001, loopback(), 3128)).isEqualTo(-1);
        assertThat(CallerResolver.socketInode("socket:[12]")).isEqualTo(12);
        assertThat(CallerResolver.socketInode("pipe:[12]")).isEqualTo(-1);
        assertThat(CallerResolver.socketInode("socket:[1x]")).isEqualTo(-1);
    }

    // ---- the fake tree -------------------------------------------------------------------------

    private void connection(int clientPort, long inode) throws IOException {
        tcp.add(String.format("   %d: 0100007F:%04X 0100007F:%04X 01 00000000:00000000 00:00000000 00000000  1000        0 %d 1 0000000000000000 20 4 30 10 -1",
                tcp.size(), clientPort, PROXY.getPort(), inode));
        // the proxy's end of the same connection, which must not match
        tcp.add(String.format("   %d: 0100007F:%04X 0100007F:%04X 01 00000000:00000000 00:00000000 00000000  1000        0 %d 1 0000000000000000 20 4 30 10 -1",
                tcp.size(), PROXY.getPort(), clientPort, inode + 500_000));
        writeTables();
    }

    private void writeTables() throws IOException {
        StringBuilder b = new StringBuilder("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n");
        tcp.forEach(l -> b.append(l).append('\n'));
        Files.writeString(proc.resolve("net/tcp"), b);
    }

    private void process(long pid, String exe) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)).resolve("fd"));
        Files.createSymbolicLink(dir.getParent().resolve("exe"), Path.of(exe));
    }

    private void fd(long pid, int fd, String target) throws IOException {
        Files.createSymbolicLink(proc.resolve(Long.toString(pid)).resolve("fd").resolve(Integer.toString(fd)), Path.of(target));
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static InetSocketAddress client(int port) {
        return new InetSocketAddress(loopback(), port);
    }

    private static InetAddress loopback() {
        return InetAddress.getLoopbackAddress();
    }
}
