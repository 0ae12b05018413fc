package dev.stockade.proxy.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the executable of the process that opened a connection to the proxy, the way the kernel
 * sees it: the client's socket in {@code /proc/net/tcp{,6}} gives an inode, the inode is found
 * among {@code /proc/<pid>/fd}, and {@code /proc/<pid>/exe} names the executable. Anything that
 * cannot be resolved is unknown ({@code null}); a caller fence then denies.
 */
public final class CallerResolver {

    private final Path proc;

    public CallerResolver(Path proc) {
        this.proc = proc;
    }

    /** The resolver over the live {@code /proc}. */
    public static CallerResolver linux() {
        return new CallerResolver(Path.of("/proc"));
    }

    /**
     * The executable path of the process owning the client end of a connection.
     *
     * @param client the client's address as the proxy sees it (remote address)
     * @param proxy  the proxy's end (local address)
     */
    public String resolve(InetSocketAddress client, InetSocketAddress proxy) {
        if (!Files.isDirectory(proc.resolve("net"))) {
            return null;
        }
        try {
            long inode = inode("tcp", client, proxy);
            if (inode <= 0) {
                inode = inode("tcp6", client, proxy);
            }
            return inode <= 0 ? null : owner(inode);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private long inode(String table, InetSocketAddress client, InetSocketAddress proxy) throws IOException {
        Path file = proc.resolve("net").resolve(table);
        if (!Files.isReadable(file)) {
            return -1;
        }
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            r.readLine();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 10) {
                    continue;
                }
                if (matches(f[1], client) && matches(f[2], proxy)) {
                    return Long.parseLong(f[9]);
                }
            }
        }
        return -1;
    }

    /** Compares a {@code /proc/net/tcp} address ({@code HEXIP:HEXPORT}, host byte order words) with a socket address. */
    static boolean matches(String field, InetSocketAddress want) {
        int colon = field.indexOf(':');
        int port = Integer.parseInt(field.substring(colon + 1), 16);
        if (port != want.getPort()) {
            return false;
        }
        byte[] bytes = kernelAddress(field.substring(0, colon));
        InetAddress got = DialGuard.unwrap(Cidr.toAddress(bytes));
        return got.equals(DialGuard.unwrap(want.getAddress()));
    }

    /** The kernel prints each 32-bit word of the address in host (little-endian here) order. */
    static byte[] kernelAddress(String hex) {
        byte[] out = new byte[hex.length() / 2];
        for (int word = 0; word < out.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                int at = (word * 4 + i) * 2;
                out[word * 4 + (3 - i)] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
            }
        }
        return out;
    }

    private String owner(long inode) throws IOException {
        String target = "socket:[" + inode + "]";
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, p -> isPid(p.getFileName().toString()))) {
            for (Path pid : pids) {
                if (holds(pid.resolve("fd"), target)) {
                    try {
                        return Files.readSymbolicLink(pid.resolve("exe")).toString();
                    } catch (IOException e) {
                        return null;
                    }
                }
            }
        }
        return null;
    }

    private static boolean holds(Path fdDir, String target) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(fdDir)) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().equals(target)) {
                        return true;
                    }
                } catch (IOException e) {
                    // fd closed meanwhile
                }
            }
        } catch (IOException e) {
            // process gone or not ours to read
        }
        return false;
    }

    private static boolean isPid(String name) {
        return !name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9');
    }

}
