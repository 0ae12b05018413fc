package dev.stockade.api.sandbox;

import dev.stockade.api.sandbox.provision.Provisioner;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether something accepts connections on each exposed port of a sandbox: one TCP connect per port, bounded by a
 * short timeout, to the address the provisioner gives (nothing is sent).
 */
@Singleton
public class PortReadiness {
    private static final int TIMEOUT_MS = 500;

    private final Provisioner provisioner;

    public PortReadiness(Provisioner provisioner) {
        this.provisioner = provisioner;
    }

    /** {@code [{port, visibility, ready}]} in the sandbox's port order. */
    public List<Map<String, Object>> check(Sandbox s) {
        return s.config().ports().stream().map(p -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("port", p.port());
            out.put("visibility", p.visibility());
            out.put("ready", s.state() == SandboxState.RUNNING && accepts(provisioner.portAddress(s.id().toString(),
                    p.port())));
            return out;
        }).toList();
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
