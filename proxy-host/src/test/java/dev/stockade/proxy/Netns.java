package dev.stockade.proxy;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace of its own for test origins, joined to this host by a veth pair on a private
 * /30: the host side is {@link #hostAddress}, the namespace side {@link #address}. Made with
 * {@code ip netns} and {@code ip link} (root and iproute2 needed; {@link #create} says why when it
 * cannot). Sockets opened by {@link #inside} belong to the namespace, so a server started there is
 * reached only over the veth, as an origin on another machine would be.
 */
final class Netns implements AutoCloseable {
    private static final int CLONE_NEWNET = 0x40000000;
    private static final int O_RDONLY = 0;

    final String name;
    final String hostAddress;
    final String address;
    private final String hostLink;

    private Netns(String name, String hostLink, String hostAddress, String address) {
        this.name = name;
        this.hostLink = hostLink;
        this.hostAddress = hostAddress;
        this.address = address;
    }

    /** Makes the namespace and its link; throws with the command's own words when it cannot. */
    static Netns create() throws IOException, InterruptedException {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String tag = Integer.toHexString(0x100000 + r.nextInt(0xf00000));
        // a random /30 in 10.200.0.0/13, so two builds on one machine do not collide
        int a = 200 + r.nextInt(8);
        int b = r.nextInt(256);
        int c = r.nextInt(64) * 4;
        String net = "10." + a + "." + b + ".";
        Netns ns = new Netns("stk" + tag, "stkh" + tag, net + (c + 1), net + (c + 2));
        String peer = "stkn" + tag;
        try {
            ip("netns", "add", ns.name);
            ip("link", "add", ns.hostLink, "type", "veth", "peer", "name", peer);
            ip("link", "set", peer, "netns", ns.name);
            ip("addr", "add", ns.hostAddress + "/30", "dev", ns.hostLink);
            ip("link", "set", ns.hostLink, "up");
            ip("-n", ns.name, "addr", "add", ns.address + "/30", "dev", peer);
            ip("-n", ns.name, "link", "set", peer, "up");
            ip("-n", ns.name, "link", "set", "lo", "up");
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    /** Runs {@code work} on a thread that has joined the namespace; sockets it opens live there. */
    <T> T inside(Callable<T> work) throws Exception {
        FutureTask<T> task = new FutureTask<>(() -> {
            int fd = LibC.open("/var/run/netns/" + name, O_RDONLY);
            try {
                LibC.setns(fd, CLONE_NEWNET);
            } finally {
                LibC.close(fd);
            }
            return work.call(); // the thread ends here, and with it its membership of the namespace
        });
        Thread t = new Thread(task, "netns-" + name);
        t.start();
        try {
            return task.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
    }

    @Override
    public void close() {
        // deleting the namespace deletes the veth end inside it, and with it the host end
        try {
            ip("netns", "del", name);
        } catch (IOException | InterruptedException | RuntimeException ignored) {
            // best effort: a namespace that was never made is not there to delete
        }
        try {
            ip("link", "del", hostLink);
        } catch (IOException | InterruptedException | RuntimeException ignored) {
            // already gone with the namespace
        }
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("ip");
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + ": " + out);
        }
    }

    private static final class LibC {
        static {
            Native.register(LibC.class, Platform.C_LIBRARY_NAME);
        }

        static native int open(String path, int flags) throws LastErrorException;

        static native int setns(int fd, int nstype) throws LastErrorException;

        static native int close(int fd);
    }
}
