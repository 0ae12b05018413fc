package dev.stockade.proxy.internal;

import dev.stockade.proxy.dial.DialGuard;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Finds the executable of the process that opened a connection to the proxy, the way the kernel
 * sees it: the client's socket gives an inode (one netlink {@code sock_diag} lookup by its exact
 * address pair, see {@link SockDiag}; {@code /proc/net/tcp{,6}} where netlink is unavailable), the
 * inode is found among {@code /proc/<pid>/fd}, and {@code /proc/<pid>/exe} names the executable.
 * Anything that cannot be resolved is unknown ({@code null}); a caller fence then denies.
 *
 * <p>Near O(1) amortised per connection: the socket is looked up, not listed (a socket table is
 * read only up to the matching line); every fd directory read records all the socket inodes it
 * sees (bounded cache inode → pid and fd), so a burst of connections from one process costs one
 * directory read, not one per connection; the process that owned the previous connection from the
 * same client address is tried first (its new fds are probed above the highest seen, as the kernel
 * hands out the lowest free number), then the others newest first, and the proxy's own process,
 * which holds the other end of every connection, last. A cached entry is trusted only after
 * {@code /proc/<pid>/fd/<fd>} is read again and still names the socket: an inode is unique while
 * its socket lives, so a recycled pid or fd can never name the wrong executable.
 */
public final class CallerResolver {
    private static final int CACHE_ENTRIES = 65_536;
    private static final int CLIENT_ENTRIES = 4_096;
    /** Consecutive free fd numbers after which the probe above a process's highest fd stops. */
    private static final int PROBE_GAP = 8;

    /** Where one socket inode was seen open. */
    private record Holder(long pid, int fd) {
    }

    private final Path proc;
    private final long selfPid;
    /** The socket lookup by netlink; {@code null}: read /proc/net/tcp{,6} instead. */
    private final SockDiag diag;
    private final Map<Long, Holder> byInode = lru(CACHE_ENTRIES);
    private final Map<InetAddress, Long> lastPid = lru(CLIENT_ENTRIES);
    private final Map<Long, Integer> maxFd = lru(CLIENT_ENTRIES);
    private final AtomicLong directoryReads = new AtomicLong();

    /** @param selfPid the pid tried last (the proxy's own; tests name another) */
    CallerResolver(Path proc, long selfPid) {
        this(proc, selfPid, null);
    }

    CallerResolver(Path proc, long selfPid, SockDiag diag) {
        this.proc = proc;
        this.selfPid = selfPid;
        this.diag = diag;
    }

    /** The resolver over the live {@code /proc}, finding sockets by netlink where it can. */
    public static CallerResolver linux() {
        return new CallerResolver(Path.of("/proc"), ProcessHandle.current().pid(), SockDiag.open());
    }

    /**
     * The resolver over the live {@code /proc} that reads the socket tables {@code /proc/net/tcp{,6}}:
     * what {@link #linux} falls back to without netlink, and the baseline of its benchmark.
     */
    public static CallerResolver linuxTablesOnly() {
        return new CallerResolver(Path.of("/proc"), ProcessHandle.current().pid(), null);
    }

    /** Whether sockets are found by netlink rather than by reading {@code /proc/net/tcp}. */
    public boolean usesNetlink() {
        return diag != null;
    }

    /** How many {@code /proc/<pid>/fd} directories were read in full so far (for tests). */
    long directoryReads() {
        return directoryReads.get();
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
            long inode = socketInode(client, proxy);
            return inode <= 0 ? null : owner(inode, DialGuard.unwrap(client.getAddress()));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The inode of the client's socket: by netlink, or from the socket tables when netlink is absent or fails. */
    private long socketInode(InetSocketAddress client, InetSocketAddress proxy) throws IOException {
        if (diag != null) {
            try {
                return diag.inode(client, proxy);
            } catch (IOException e) {
                // fall through to the tables
            }
        }
        long inode = ProcNetTcp.inode(proc, "tcp", client, proxy);
        return inode > 0 ? inode : ProcNetTcp.inode(proc, "tcp6", client, proxy);
    }

    private String owner(long inode, InetAddress client) throws IOException {
        String target = socket(inode);
        Holder cached;
        synchronized (this) {
            cached = byInode.get(inode);
        }
        if (cached != null && holds(cached.pid(), cached.fd(), target)) {
            return found(cached.pid(), client);
        }
        Long previous;
        synchronized (this) {
            previous = lastPid.get(client);
        }
        if (previous != null && (probeAbove(previous, inode) || scan(previous, inode))) {
            return found(previous, client);
        }
        boolean selfSeen = false;
        for (long pid : newestFirst()) {
            if (pid == selfPid) {
                selfSeen = true; // holds the other end of every connection: last
            } else if ((previous == null || pid != previous) && scan(pid, inode)) {
                return found(pid, client);
            }
        }
        if (selfSeen && scan(selfPid, inode)) {
            return found(selfPid, client);
        }
        return null;
    }

    /**
     * The live pids, newest first. A client the cache does not know is most often a process that
     * just started (a {@code curl} per request). The kernel hands out pids in rising order and wraps
     * at {@code pid_max}, and the last field of {@code /proc/loadavg} is the pid it handed out last:
     * so the pids at or below that one come first, highest first, then those above it (from before
     * the wrap), highest first. Without {@code loadavg} the order is simply highest first. The order
     * only decides how soon the socket is found; the inode check keeps any order correct.
     */
    private long[] newestFirst() throws IOException {
        long[] pids = new long[64];
        int n = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc, p -> isPid(p.getFileName().toString()))) {
            for (Path dir : dirs) {
                if (n == pids.length) {
                    pids = Arrays.copyOf(pids, n * 2);
                }
                pids[n++] = Long.parseLong(dir.getFileName().toString());
            }
        }
        Arrays.sort(pids, 0, n);
        long last = lastPid();
        int atOrBelow = 0;
        while (atOrBelow < n && pids[atOrBelow] <= last) {
            atOrBelow++;
        }
        long[] order = new long[n];
        int k = 0;
        for (int i = atOrBelow - 1; i >= 0; i--) {
            order[k++] = pids[i];
        }
        for (int i = n - 1; i >= atOrBelow; i--) {
            order[k++] = pids[i];
        }
        return order;
    }

    /** The pid the kernel handed out last (the last field of {@code /proc/loadavg}); the highest possible when unknown. */
    private long lastPid() {
        try {
            String loadavg = Files.readString(proc.resolve("loadavg"), StandardCharsets.US_ASCII).trim();
            return Long.parseLong(loadavg.substring(loadavg.lastIndexOf(' ') + 1));
        } catch (IOException | RuntimeException e) {
            return Long.MAX_VALUE;
        }
    }

    private String found(long pid, InetAddress client) {
        synchronized (this) {
            lastPid.put(client, pid);
        }
        try {
            return Files.readSymbolicLink(proc.resolve(Long.toString(pid)).resolve("exe")).toString();
        } catch (IOException e) {
            return null;
        }
    }

    /** Whether {@code /proc/<pid>/fd/<fd>} names the socket right now: the staleness check. */
    private boolean holds(long pid, int fd, String target) {
        try {
            return Files.readSymbolicLink(proc.resolve(Long.toString(pid)).resolve("fd").resolve(Integer.toString(fd)))
                    .toString().equals(target);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Reads the fds above the highest one seen for the process, where the kernel puts new ones
     * while the lower ones stay open; records every socket met. Whether {@code inode} was among them.
     */
    private boolean probeAbove(long pid, long inode) {
        Integer max;
        synchronized (this) {
            max = maxFd.get(pid);
        }
        if (max == null) {
            return false;
        }
        Path fds = proc.resolve(Long.toString(pid)).resolve("fd");
        boolean hit = false;
        int highest = max;
        for (int fd = max + 1, gap = 0; gap < PROBE_GAP; fd++) {
            String link;
            try {
                link = Files.readSymbolicLink(fds.resolve(Integer.toString(fd))).toString();
            } catch (IOException | RuntimeException e) {
                gap++;
                continue;
            }
            gap = 0;
            highest = fd;
            long seen = socketInode(link);
            if (seen > 0) {
                remember(seen, pid, fd);
                hit |= seen == inode;
            }
        }
        synchronized (this) {
            maxFd.put(pid, highest);
        }
        return hit;
    }

    /** Reads every fd of the process, records every socket it holds; whether {@code inode} is one. */
    private boolean scan(long pid, long inode) {
        directoryReads.incrementAndGet();
        boolean hit = false;
        int highest = -1;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve(Long.toString(pid)).resolve("fd"))) {
            for (Path fd : fds) {
                int number;
                try {
                    number = Integer.parseInt(fd.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                highest = Math.max(highest, number);
                try {
                    long seen = socketInode(Files.readSymbolicLink(fd).toString());
                    if (seen > 0) {
                        remember(seen, pid, number);
                        hit |= seen == inode;
                    }
                } catch (IOException e) {
                    // fd closed meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            // process gone or not ours to read
        }
        if (highest >= 0) {
            synchronized (this) {
                maxFd.put(pid, highest);
            }
        }
        return hit;
    }

    private synchronized void remember(long inode, long pid, int fd) {
        byInode.put(inode, new Holder(pid, fd));
    }

    private static String socket(long inode) {
        return "socket:[" + inode + "]";
    }

    /** The inode of a {@code socket:[N]} link target, else -1. */
    static long socketInode(String link) {
        if (!link.startsWith("socket:[") || !link.endsWith("]") || link.length() < 10) {
            return -1;
        }
        long v = 0;
        for (int k = 8; k < link.length() - 1; k++) {
            char c = link.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static boolean isPid(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static <K, V> Map<K, V> lru(int bound) {
        return new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > bound;
            }
        };
    }
}
