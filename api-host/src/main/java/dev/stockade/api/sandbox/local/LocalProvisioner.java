package dev.stockade.api.sandbox.local;

import dev.stockade.api.config.PlatformConfig;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.Provisioner;
import dev.stockade.api.sandbox.provision.RuntimeStatus;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Sandboxes as process trees on this Linux host: each runs under bubblewrap (own mount, pid, ipc and uts
 * namespaces; the host's {@code /usr} read-only; its volume at {@code /workspace}) inside its own network namespace
 * whose only route leads to the egress proxy ({@link LocalNetwork}), with cgroup cpu and memory limits
 * ({@link Cgroups}). Needs root, {@code bwrap}, {@code ip} and {@code bridge}. State lives in
 * {@code <data-dir>/sandboxes/<id>/} (the volume and the network slot); processes do not survive a host restart and
 * are re-provisioned by the sandbox feature.
 */
@Singleton
@Requires(property = "sandbox.provisioner", value = "local", defaultValue = "local")
public class LocalProvisioner implements Provisioner {
    private final Path root;
    private final LocalNetwork network;
    private final Map<String, Process> running = new ConcurrentHashMap<>();

    public LocalProvisioner(PlatformConfig config,
                            @Value("${sandbox.local.network:10.213.0.1/16}") String networkCidr) {
        this.root = config.dataDir().resolve("sandboxes");
        this.network = new LocalNetwork(networkCidr);
    }

    @Override
    public String kind() {
        return "local";
    }

    /** The address the egress proxy must listen on for local sandboxes: the bridge's. */
    public String gateway() {
        return network.gateway();
    }

    /** Creates the bridge (the egress proxy binds to its address); idempotent. */
    public void prepareNetwork() throws ProvisionException {
        network.ensureBridge();
    }

    @Override
    public synchronized void provision(SandboxSpec spec) throws ProvisionException {
        String id = spec.sandboxId();
        stopProcesses(id);
        Path dir = root.resolve(id);
        Path volume = dir.resolve("volume");
        try {
            Files.createDirectories(volume);
            Files.writeString(dir.resolve("ca.pem"), spec.egress().caCertificate() == null ? ""
                    : spec.egress().caCertificate());
        } catch (IOException e) {
            throw new ProvisionException("cannot prepare the sandbox's volume: " + e.getMessage());
        }
        network.ensureBridge();
        network.attach(ns(id), hostIf(id), network.address(slot(id)));
        List<Path> cgroups = Cgroups.create(name(id), spec.cpuMillis(), spec.memoryBytes());
        List<String> argv = new ArrayList<>();
        // the shell joins the cgroups first, so everything it becomes and starts inherits the limits
        StringBuilder join = new StringBuilder();
        for (Path procs : cgroups) {
            join.append("echo $$ > '").append(procs).append("' && ");
        }
        argv.addAll(List.of("/bin/sh", "-c", join + "exec ip netns exec \"$0\" \"$@\"", ns(id)));
        argv.addAll(Bubblewrap.argv(volume, dir.resolve("ca.pem"), spec));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(dir.resolve("console.log").toFile());
        pb.environment().clear();
        pb.environment().putAll(Bubblewrap.environment(spec, network.gateway()));
        try {
            Process p = pb.start();
            running.put(id, p);
            if (Bubblewrap.awaitInit(p) < 0) {
                throw new ProvisionException("the sandbox exited at start: " + Bubblewrap.tail(dir.resolve("console.log")));
            }
        } catch (IOException e) {
            throw new ProvisionException("cannot start the sandbox: " + e.getMessage());
        }
    }

    @Override
    public synchronized void stop(String sandboxId) {
        stopProcesses(sandboxId);
    }

    @Override
    public synchronized void delete(String sandboxId) throws ProvisionException {
        stopProcesses(sandboxId);
        Path dir = root.resolve(sandboxId);
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                throw new ProvisionException("cannot delete the sandbox's volume: " + e.getMessage());
            }
        }
    }

    @Override
    public RuntimeStatus status(String sandboxId) {
        Process p = running.get(sandboxId);
        if (p == null) {
            return RuntimeStatus.absent();
        }
        return p.isAlive() ? new RuntimeStatus("running", "") : new RuntimeStatus("failed",
                "the sandbox's init process exited with status " + p.exitValue());
    }

    @Override
    public ExecProcess exec(String sandboxId, ExecRequest request) throws ProvisionException {
        long init = initPid(sandboxId).orElseThrow(() -> new ProvisionException("the sandbox is not running"));
        return NsExec.start(init, request);
    }

    @Override
    public Optional<InetSocketAddress> portAddress(String sandboxId, int port) {
        if (!status(sandboxId).running()) {
            return Optional.empty();
        }
        return Optional.of(new InetSocketAddress(network.address(slotIfKnown(sandboxId)), port));
    }

    /** The host pid of the sandbox's init process (inside all its namespaces), while it runs. */
    public Optional<Long> initPid(String sandboxId) {
        Process p = running.get(sandboxId);
        return p == null || !p.isAlive() ? Optional.empty() : Bubblewrap.innermost(p.toHandle());
    }

    private void stopProcesses(String id) {
        Process p = running.remove(id);
        if (p != null) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        network.detach(ns(id), hostIf(id));
        Cgroups.remove(name(id));
    }

    /** The sandbox's network slot: kept in its directory, the smallest free one on first provision. */
    private int slot(String id) throws ProvisionException {
        Path file = root.resolve(id).resolve("slot");
        try {
            if (Files.exists(file)) {
                return Integer.parseInt(Files.readString(file).strip());
            }
            java.util.Set<Integer> taken = new java.util.HashSet<>();
            try (Stream<Path> dirs = Files.list(root)) {
                for (Path d : dirs.toList()) {
                    Path s = d.resolve("slot");
                    if (Files.exists(s)) {
                        taken.add(Integer.parseInt(Files.readString(s).strip()));
                    }
                }
            }
            int free = 0;
            while (taken.contains(free)) {
                free++;
            }
            if (free >= network.capacity()) {
                throw new ProvisionException("no free sandbox address in sandbox.local.network");
            }
            Files.writeString(file, Integer.toString(free));
            return free;
        } catch (IOException | NumberFormatException e) {
            throw new ProvisionException("cannot assign the sandbox's address: " + e.getMessage());
        }
    }

    private int slotIfKnown(String id) {
        try {
            return Integer.parseInt(Files.readString(root.resolve(id).resolve("slot")).strip());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private static String name(String id) {
        return id.replace("-", "").substring(0, 12);
    }

    private static String ns(String id) {
        return "stk-" + name(id);
    }

    private static String hostIf(String id) {
        return "vh" + name(id);
    }
}
