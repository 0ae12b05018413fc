package dev.stockade.api.sandbox;

import dev.stockade.api.sandbox.provision.Provisioner;
import io.micronaut.core.annotation.Introspected;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Optional;

/**
 * Whether something accepts connections on each exposed port of a sandbox: one TCP connect per port, bounded by a
 * short timeout, to the address the provisioner gives (nothing is sent).
 */
@Singleton
record PortReadiness(Provisioner provisioner) {
    private static final int TIMEOUT_MS = 500;

    /** One exposed port and whether something accepts connections on it. */
    @Introspected
    public record Ready(int port, String visibility, boolean ready) {
    }

    /** Every exposed port in the sandbox's port order. */
    public List<Ready> check(Sandbox s) {
        return s.config().ports().stream().map(p -> new Ready(p.port(), p.visibility(),
                s.state() == SandboxState.RUNNING && accepts(provisioner.portAddress(s.id().toString(), p.port()))))
                .toList();
    }

    private static boolean accepts(Optional<InetSocketAddress> address) {
        if (address.isEmpty()) {
            return false;
        }
        try (Socket socket = new Socket()) {
            socket.connect(address.get(), TIMEOUT_MS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
