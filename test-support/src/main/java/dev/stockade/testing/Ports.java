package dev.stockade.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A free port for a process a test starts and that binds it later. A port the kernel hands out ({@code bind(0)}) lies
 * in its ephemeral range, where any outgoing connection made in between may take it ("address already in use" in a
 * replica that started a second later); this one is picked below that range, where only explicit binds land.
 */
public final class Ports {
    private static final int LOWEST = 20_000;

    private Ports() {
    }

    /** A port that was free on loopback a moment ago and is not one the kernel gives outgoing connections. */
    public static int free() {
        int below = ephemeralLow();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, Math.max(LOWEST + 1, below));
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            } catch (IOException taken) {
                // in use: try another
            }
        }
        throw new UncheckedIOException(new IOException("no free port below " + below + " after 200 tries"));
    }

    /** The first port of the kernel's ephemeral range (32768 when it cannot be read). */
    private static int ephemeralLow() {
        try {
            // read by lines: Files.readString gives a /proc file's first byte only on Java 17
            return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0)
                    .strip().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
