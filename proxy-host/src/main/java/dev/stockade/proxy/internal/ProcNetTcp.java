package dev.stockade.proxy.internal;

import dev.stockade.proxy.dial.Cidr;
import dev.stockade.proxy.dial.DialGuard;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reading the kernel's socket tables ({@code /proc/net/tcp}, {@code tcp6}) for the caller resolver's fallback
 * when netlink sock_diag is absent: find the line whose local end is the client and remote end the proxy.
 * Pure parsing over one line at a time; no state.
 */
final class ProcNetTcp {
    private ProcNetTcp() {
    }

    /** The inode of the client's socket in {@code <proc>/net/<table>}, -1 when no line matches or it is unreadable. */
    static long inode(Path proc, String table, InetSocketAddress client, InetSocketAddress proxy) throws IOException {
        Path file = proc.resolve("net").resolve(table);
        if (!Files.isReadable(file)) {
            return -1;
        }
        InetAddress clientAddress = DialGuard.unwrap(client.getAddress());
        InetAddress proxyAddress = DialGuard.unwrap(proxy.getAddress());
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            r.readLine();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                long inode = match(line, clientAddress, client.getPort(), proxyAddress, proxy.getPort());
                if (inode > 0) {
                    return inode; // stop at the match
                }
            }
        }
        return -1;
    }

    /**
     * The inode of a {@code /proc/net/tcp} line whose local end is the client and remote end the
     * proxy, else -1. Fields are split by hand (no regex) and the ports, which almost never match,
     * are compared before any address is decoded.
     */
    static long match(String line, InetAddress client, int clientPort, InetAddress proxy, int proxyPort) {
        int[] start = new int[10];
        int[] end = new int[10];
        int n = 0;
        int i = 0;
        int len = line.length();
        while (n < 10) {
            while (i < len && line.charAt(i) == ' ') {
                i++;
            }
            if (i >= len) {
                return -1;
            }
            start[n] = i;
            while (i < len && line.charAt(i) != ' ') {
                i++;
            }
            end[n++] = i;
        }
        int localColon = line.lastIndexOf(':', end[1] - 1);
        int remoteColon = line.lastIndexOf(':', end[2] - 1);
        if (localColon < start[1] || remoteColon < start[2]
                || hex(line, localColon + 1, end[1]) != clientPort || hex(line, remoteColon + 1, end[2]) != proxyPort) {
            return -1;
        }
        if (!sameAddress(line.substring(start[1], localColon), client)
                || !sameAddress(line.substring(start[2], remoteColon), proxy)) {
            return -1;
        }
        long inode = 0;
        for (int k = start[9]; k < end[9]; k++) {
            char c = line.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            inode = inode * 10 + (c - '0');
        }
        return inode;
    }

    private static int hex(String s, int from, int to) {
        if (to - from > 8 || to == from) {
            return -1;
        }
        int v = 0;
        for (int k = from; k < to; k++) {
            int d = Character.digit(s.charAt(k), 16);
            if (d < 0) {
                return -1;
            }
            v = v << 4 | d;
        }
        return v;
    }

    private static boolean sameAddress(String hex, InetAddress want) {
        if (hex.length() != 8 && hex.length() != 32) {
            return false;
        }
        InetAddress got = DialGuard.unwrap(Cidr.toAddress(kernelAddress(hex)));
        return got.equals(want);
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
}
