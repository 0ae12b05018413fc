package dev.stockade.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stockade.proxy.dial.DialGuard;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The netlink lookup against real sockets of this JVM: the inode it returns is one this process
 * holds ({@code /proc/self/fd}), and equals what {@code /proc/net/tcp{,6}} lists for the same pair.
 */
class SockDiagTest {
    private final SockDiag diag = SockDiag.open();

    @Test
    void findsBothEndsOfALoopbackConnectionAndNothingForAPairThatDoesNotExist() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "Linux only");
        assertThat(diag).as("netlink sock_diag works on this Linux machine").isNotNull();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
             Socket client = new Socket(InetAddress.getByName("127.0.0.1"), server.getLocalPort());
             Socket accepted = server.accept()) {
            InetSocketAddress clientEnd = (InetSocketAddress) client.getLocalSocketAddress();
            InetSocketAddress serverEnd = (InetSocketAddress) accepted.getLocalSocketAddress();

            long clientInode = diag.inode(clientEnd, serverEnd);
            long serverInode = diag.inode(serverEnd, clientEnd);
            assertThat(clientInode).isPositive().isNotEqualTo(serverInode);
            assertThat(heldInodes()).contains(clientInode, serverInode);
            assertThat(clientInode).isEqualTo(fromProcTables(clientEnd, serverEnd));

            InetSocketAddress nobody = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 1);
            assertThat(diag.inode(nobody, serverEnd)).isEqualTo(-1);
        }
    }

    @Test
    void findsAnIpv6Connection() throws IOException {
        assumeTrue(diag != null);
        InetAddress v6 = InetAddress.getByName("::1");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.INET6)) {
            try {
                server.bind(new InetSocketAddress(v6, 0));
            } catch (IOException noIpv6) {
                assumeTrue(false, "no IPv6 loopback here");
            }
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                 SocketChannel accepted = server.accept()) {
                InetSocketAddress clientEnd = (InetSocketAddress) client.getLocalAddress();
                assertThat(clientEnd.getAddress()).isInstanceOf(Inet6Address.class);
                long inode = diag.inode(clientEnd, (InetSocketAddress) accepted.getLocalAddress());
                assertThat(heldInodes()).contains(inode);
            }
        }
    }

    /** The socket inodes this process holds open. */
    private static Set<Long> heldInodes() throws IOException {
        Set<Long> out = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    long inode = CallerResolver.socketInode(Files.readSymbolicLink(fd).toString());
                    if (inode > 0) {
                        out.add(inode);
                    }
                } catch (IOException closedMeanwhile) {
                    // the directory stream's own fd
                }
            }
        }
        return out;
    }

    private static long fromProcTables(InetSocketAddress local, InetSocketAddress remote) throws IOException {
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            for (String line : Files.readAllLines(Path.of(table))) {
                long inode = ProcNetTcp.match(line, DialGuard.unwrap(local.getAddress()), local.getPort(),
                        DialGuard.unwrap(remote.getAddress()), remote.getPort());
                if (inode > 0) {
                    return inode;
                }
            }
        }
        return -1;
    }
}
