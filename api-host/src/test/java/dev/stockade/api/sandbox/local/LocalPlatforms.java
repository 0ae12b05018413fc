package dev.stockade.api.sandbox.local;

import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Local provisioners as a platform makes them, for the tests that run several on this host's shared slots. */
final class LocalPlatforms {
    private LocalPlatforms() {
    }

    /** A platform's provisioner over {@code data}, with {@code warmPool} warm entries, its relay never dialled. */
    static LocalProvisioner platform(Path data, int warmPool) {
        return new LocalProvisioner(new PlatformConfig(null, null, 32768, data, Duration.ofSeconds(10), null),
                "10.213.0.1/16", warmPool, () -> new InetSocketAddress("127.0.0.1", 9));
    }

    /** A sandbox of 250 millicpus and 128 MiB whose egress goes nowhere. */
    static SandboxSpec spec(String id) {
        return new SandboxSpec(id, UUID.randomUUID().toString(), UUID.randomUUID().toString(), "s", 1, null, 250,
                128L << 20, Map.of(), new SandboxSpec.EgressRoute("10.213.0.1", 9, "tok", ""), List.of());
    }
}
