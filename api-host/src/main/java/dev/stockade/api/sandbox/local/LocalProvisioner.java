package dev.stockade.api.sandbox.local;

import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.Provisioner;
import dev.stockade.api.sandbox.provision.RuntimeStatus;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import io.micronaut.runtime.server.EmbeddedServer;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
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
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Sandboxes as process trees on this Linux host: each runs under bubblewrap (own mount, pid, ipc and uts
 * namespaces; the host's {@code /usr} read-only; its volume at {@code /workspace}) inside its own network namespace
 * whose only route leads to the egress proxy ({@link LocalNetwork}), with cgroup cpu and memory limits
 * ({@link Cgroups}). Needs root, {@code bwrap}, {@code ip} and {@code bridge}. Volumes live in
 * {@code <data-dir>/sandboxes/<id>/}, network slots in {@code /run/stockade/slots}; processes stop with the
 * platform and are provisioned again by the sandbox feature at its next start.
 */
@Singleton
@Requires(property = "sandbox.provisioner", value = "local", defaultValue = "local")
public class LocalProvisioner implements Provisioner {
    private static final Path SLOTS = Path.of("/run/stockade/slots");
    /** Slots of the sandboxes this provisioner knows, by sandbox id (the files stay the truth across restarts). */
    private final Map<String, Integer> slots = new java.util.concurrent.ConcurrentHashMap<>();
    /** Where the next slot search starts. */
    private final java.util.concurrent.atomic.AtomicInteger nextSlot = new java.util.concurrent.atomic.AtomicInteger();
    private final Path root;
    private final LocalNetwork network;
    private final Map<String, Process> running = new ConcurrentHashMap<>();

    private final PlatformRelay relay;

    @Inject
    public LocalProvisioner(PlatformConfig config,
                            @Value("${sandbox.local.network:10.213.0.1/16}") String networkCidr,
                            BeanProvider<EmbeddedServer> server) {
        this(config, networkCidr, () -> listener(server.get()));
    }

    /** With {@code platform}: where the platform's API listens, as this host reaches it. */
    LocalProvisioner(PlatformConfig config, String networkCidr, Supplier<InetSocketAddress> platform) {
        this.root = config.dataDir().resolve("sandboxes");
        this.network = new LocalNetwork(networkCidr);
        this.relay = new PlatformRelay(network.gateway(), platform);
    }

    private static InetSocketAddress listener(EmbeddedServer s) {
        String host = s.getHost();
        boolean any = host == null || host.equals("0.0.0.0") || host.equals("::") || host.equals("localhost");
        return new InetSocketAddress(any ? "127.0.0.1" : host, s.getPort());
    }

    /**
     * Sandboxes reach the platform through a relay on the bridge's address (their only route), since the platform
     * usually listens on loopback only.
     */
    @Override
    public String platformApiUrl() throws ProvisionException {
        network.ensureBridge();
        return "http://" + network.gateway() + ":" + relay.port() + "/v1";
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
        stopProcess(id); // the network is cleaned by attach, in the same shell that rebuilds it
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
        freeSlot(sandboxId);
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
        Integer slot = slotIfKnown(sandboxId);
        return slot == null ? Optional.empty() : Optional.of(new InetSocketAddress(network.address(slot), port));
    }

    /** The host pid of the sandbox's init process (inside all its namespaces), while it runs. */
    public Optional<Long> initPid(String sandboxId) {
        Process p = running.get(sandboxId);
        return p == null || !p.isAlive() ? Optional.empty() : Bubblewrap.innermost(p.toHandle());
    }

    private void stopProcesses(String id) {
        stopProcess(id);
        network.detach(ns(id), hostIf(id));
        Cgroups.remove(name(id));
    }

    private void stopProcess(String id) {
        Process p = running.remove(id);
        if (p != null) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /**
     * The sandbox's network slot, unique on this host (several platforms and test contexts share the bridge): a file
     * per slot under {@code /run/stockade/slots} created atomically, holding the sandbox id; kept while the sandbox
     * exists, freed on delete. {@code /run} is emptied at boot, with the namespaces.
     */
    private int slot(String id) throws ProvisionException {
        try {
            Files.createDirectories(SLOTS);
            Integer known = slotIfKnown(id);
            if (known != null) {
                return known;
            }
            int capacity = network.capacity();
            for (int tried = 0; tried < capacity; tried++) {
                int i = Math.floorMod(nextSlot.getAndIncrement(), capacity); // round robin: one try when the pool is sparse
                try {
                    Files.writeString(SLOTS.resolve(Integer.toString(i)), id, java.nio.file.StandardOpenOption.CREATE_NEW,
                            java.nio.file.StandardOpenOption.WRITE);
                    slots.put(id, i);
                    return i;
                } catch (java.nio.file.FileAlreadyExistsException taken) {
                    // the next one
                }
            }
            throw new ProvisionException("no free sandbox address in sandbox.local.network");
        } catch (IOException e) {
            throw new ProvisionException("cannot assign the sandbox's address: " + e.getMessage());
        }
    }

    /** The sandbox's slot: from memory, else (a sandbox of an earlier run of this host) from the slot files. */
    private Integer slotIfKnown(String id) {
        Integer cached = slots.get(id);
        if (cached != null) {
            return cached;
        }
        try (Stream<Path> files = Files.list(SLOTS)) {
            for (Path p : files.toList()) {
                if (Files.readString(p).equals(id)) {
                    int slot = Integer.parseInt(p.getFileName().toString());
                    slots.put(id, slot);
                    return slot;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return null;
        }
        return null;
    }

    private void freeSlot(String id) {
        Integer slot = slotIfKnown(id);
        slots.remove(id);
        if (slot != null) {
            try {
                Files.deleteIfExists(SLOTS.resolve(slot.toString()));
            } catch (IOException e) {
                // a leaked slot is reused only after a reboot; the pool is large
            }
        }
    }

    /** Stops every sandbox this provisioner started (the platform provisions them again at its next start). */
    @PreDestroy
    void stopAll() {
        relay.close();
        for (String id : List.copyOf(running.keySet())) {
            stopProcesses(id);
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
