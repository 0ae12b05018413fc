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
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sandboxes as process trees on this Linux host: each runs under bubblewrap (own mount, pid, ipc and uts
 * namespaces; the host's {@code /usr} read-only; its volume at {@code /workspace}) inside its own network namespace
 * whose only route leads to the egress proxy ({@link LocalNetwork}), with cgroup cpu and memory limits
 * ({@link Cgroups}). Needs root, {@code bwrap}, {@code ip}, {@code bridge} and {@code nsenter}. Volumes live in
 * {@code <data-dir>/sandboxes/<id>/}; network slots ({@link HostSlots}) are held while a sandbox runs, several come
 * ready from a {@link WarmPool}, and what an earlier run left behind is reclaimed by {@link #recover}. Processes stop
 * with the platform and are provisioned again by the sandbox feature at its next start.
 */
@Singleton
@Requires(property = "sandbox.provisioner", value = "local", defaultValue = "local")
public class LocalProvisioner implements Provisioner {
    private static final Logger LOG = LoggerFactory.getLogger(LocalProvisioner.class);
    private static final Path SLOTS = Path.of("/run/stockade/slots");
    /** Threads refilling the warm pool: one fell behind starts made back to back (a fifth made their own network). */
    private static final int WARM_POOL_FILLERS = 2;

    /** A sandbox this provisioner started: its process tree, its network slot, its init's host pid. */
    private record Started(Process process, int slot, long initPid) {
    }

    private final Path root;
    private final LocalNetwork network;
    private final HostSlots slots;
    private final SlotStarts starts;
    private final WarmPool<SlotStarts.Ready> pool;
    private final Map<String, Started> running = new ConcurrentHashMap<>();
    private final PlatformRelay relay;
    /**
     * Starts, stops and deletes of different sandboxes run side by side (the sandbox feature orders those of one
     * sandbox); reclaiming and the final stop take the write side, so nothing is made behind them.
     */
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    /**
     * Operations on one sandbox exclude each other even when they do not come through the sandbox feature's queue
     * (the deletions it runs at shutdown, while an interrupted start may still be finishing).
     */
    private final ReentrantLock[] stripes = new ReentrantLock[64];
    private volatile boolean closed;

    @Inject
    public LocalProvisioner(PlatformConfig config,
                            @Value("${sandbox.local.network:10.213.0.1/16}") String networkCidr,
                            @Value("${sandbox.local.warm-pool:4}") int warmPool,
                            BeanProvider<EmbeddedServer> server) {
        this(config, networkCidr, warmPool, () -> listener(server.get()));
    }

    /** With {@code platform}: where the platform's API listens, as this host reaches it. */
    LocalProvisioner(PlatformConfig config, String networkCidr, int warmPool, Supplier<InetSocketAddress> platform) {
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new ReentrantLock();
        }
        if (warmPool < 0 || warmPool > 64) {
            throw new IllegalArgumentException("sandbox.local.warm-pool must be 0 to 64");
        }
        this.root = config.dataDir().resolve("sandboxes");
        this.network = new LocalNetwork(networkCidr);
        this.relay = new PlatformRelay(network.gateway(), platform);
        try {
            this.slots = new HostSlots(SLOTS, network.capacity(), HostSlots.ownerOf(config.dataDir()),
                    config.dataDir());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or make the platform's identity in " + root, e);
        }
        this.starts = new SlotStarts(root, network, slots, relay::port);
        this.pool = new WarmPool<>(warmPool, WARM_POOL_FILLERS, new WarmPool.Maker<>() {
            @Override
            public SlotStarts.Ready make() throws ProvisionException {
                return starts.prepare("");
            }

            @Override
            public void unmake(SlotStarts.Ready entry) {
                starts.discard(entry, "");
            }
        });
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

    /**
     * The platform's API as a sandbox also reaches it at ECS's link-local credentials address (port 80, mapped to the
     * relay inside its namespace): plain http that the AWS SDKs accept in {@code AWS_CONTAINER_CREDENTIALS_FULL_URI},
     * where they refuse the bridge's address.
     */
    public String linkLocalApiUrl() {
        return "http://" + LocalNetwork.LINK_LOCAL_PLATFORM + "/v1";
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

    /**
     * Reclaims what an earlier run of this platform left on the host (slots, namespaces, veths, cgroups; the volumes
     * of sandboxes {@code exists} no longer knows) and what platforms that can never come back left, then starts
     * filling the warm pool. Another live platform's slots are never touched.
     */
    @Override
    public void recover(Predicate<String> exists) {
        lock.writeLock().lock();
        try {
            reclaimLeftovers(exists);
            if (!closed) {
                pool.start();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Holds every start, stop and delete back until the hold is closed (on the same thread), as reclaiming does: how
     * a test sees what callers of a sandbox that is still starting get.
     */
    Hold holdOperations() {
        lock.writeLock().lock();
        return () -> lock.writeLock().unlock();
    }

    /** A hold on the provisioner's operations; closing it lets them run. */
    interface Hold extends AutoCloseable {
        @Override
        void close();
    }

    private void reclaimLeftovers(Predicate<String> exists) {
        Volumes.clearConsoles(root);
        for (HostSlots.Held h : slots.fromEarlierRuns()) {
            reclaim(h);
            if (!h.claim().pooled() && !exists.test(h.claim().sandbox())) {
                Volumes.delete(root, h.claim().sandbox());
            }
        }
        slots.abandoned().forEach(this::reclaim);
        for (String id : Volumes.ids(root)) {
            if (!exists.test(id) && !running.containsKey(id)) {
                Cgroups.remove(SlotStarts.groupOfSandbox(id));
                Volumes.delete(root, id);
            }
        }
    }

    private void reclaim(HostSlots.Held held) {
        slots.reclaim(held, () -> {
            network.detach(held.slot());
            Cgroups.killAll(Cgroups.ofSlot(held.slot())); // the platform that held it is gone: so is all of it
            Cgroups.remove(Cgroups.ofSlot(held.slot()));
            if (!held.claim().pooled()) {
                Cgroups.remove(SlotStarts.groupOfSandbox(held.claim().sandbox())); // a group of an older platform, named by its sandbox
            }
        });
    }

    @Override
    public void provision(SandboxSpec spec) throws ProvisionException {
        lock.readLock().lock();
        try {
            if (closed) {
                throw new ProvisionException("the platform is stopping");
            }
            ReentrantLock one = stripe(spec.sandboxId());
            one.lock();
            try {
                start(spec);
            } finally {
                one.unlock();
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    private ReentrantLock stripe(String sandboxId) {
        return stripes[Math.floorMod(sandboxId.hashCode(), stripes.length)];
    }

    private void start(SandboxSpec spec) throws ProvisionException {
        String id = spec.sandboxId();
        stopProcesses(id);
        long t0 = System.nanoTime();
        Path dir = Volumes.prepare(root, id, spec.egress().caCertificate());
        Optional<SlotStarts.Ready> warm = starts.takeIntact(pool);
        SlotStarts.Ready ready = warm.isPresent() ? warm.get() : starts.prepare(id);
        long t1 = System.nanoTime();
        try {
            slots.assign(ready.slot(), id);
            Cgroups.limit(Cgroups.ofSlot(ready.slot()), spec.cpuMillis(), spec.memoryBytes());
            Path console = Volumes.takeConsole(ready.console(), dir);
            long t2 = System.nanoTime();
            Bubblewrap.launch(ready.launcher(), Bubblewrap.args(dir.resolve("volume"), dir.resolve("ca.pem"), spec));
            long init = Bubblewrap.awaitInit(ready.launcher());
            if (init < 0) {
                throw new ProvisionException("the sandbox exited at start: " + Bubblewrap.tail(console));
            }
            running.put(id, new Started(ready.launcher(), ready.slot(), init));
            LOG.debug("provisioned {}: ready {} ms ({}), limits {} ms, bwrap to init {} ms", id, ms(t1 - t0),
                    warm.isPresent() ? "warm" : "made", ms(t2 - t1), ms(System.nanoTime() - t2));
        } catch (ProvisionException | RuntimeException e) {
            starts.discard(ready, id);
            throw e;
        }
    }

    @Override
    public void stop(String sandboxId) {
        lock.readLock().lock();
        ReentrantLock one = stripe(sandboxId);
        one.lock();
        try {
            stopProcesses(sandboxId);
        } finally {
            one.unlock();
            lock.readLock().unlock();
        }
    }

    @Override
    public void delete(String sandboxId) throws ProvisionException {
        lock.readLock().lock();
        ReentrantLock one = stripe(sandboxId);
        one.lock();
        try {
            stopProcesses(sandboxId);
            if (!Volumes.delete(root, sandboxId)) {
                throw new ProvisionException("cannot delete the sandbox's volume");
            }
        } finally {
            one.unlock();
            lock.readLock().unlock();
        }
    }

    /** Whether the sandbox runs on this host (its egress comes to this platform's proxy). */
    public boolean runsHere(String sandboxId) {
        return running.containsKey(sandboxId);
    }

    @Override
    public RuntimeStatus status(String sandboxId) {
        Started s = running.get(sandboxId);
        if (s == null) {
            return RuntimeStatus.absent();
        }
        return s.process().isAlive() ? new RuntimeStatus("running", "") : new RuntimeStatus("failed",
                "the sandbox's init process exited with status " + s.process().exitValue());
    }

    @Override
    public ExecProcess exec(String sandboxId, ExecRequest request) throws ProvisionException {
        long init = initPid(sandboxId).orElseThrow(() -> new ProvisionException("the sandbox is not running"));
        return NsExec.start(init, request);
    }

    @Override
    public Optional<InetSocketAddress> portAddress(String sandboxId, int port) {
        Started s = running.get(sandboxId);
        return s == null || !s.process().isAlive() ? Optional.empty()
                : Optional.of(new InetSocketAddress(network.address(s.slot()), port));
    }

    /** The host pid of the sandbox's init process (inside all its namespaces), while it runs. */
    public Optional<Long> initPid(String sandboxId) {
        Started s = running.get(sandboxId);
        return s == null || !s.process().isAlive() ? Optional.empty() : Optional.of(s.initPid());
    }

    /** The network slot a running sandbox holds. */
    OptionalInt slotOf(String sandboxId) {
        Started s = running.get(sandboxId);
        return s == null ? OptionalInt.empty() : OptionalInt.of(s.slot());
    }

    /** How many warm-pool entries are ready now. */
    int warmReady() {
        return pool.readyCount();
    }

    /** Kills the sandbox's processes and gives its network slot back (a stopped sandbox holds no address). */
    private void stopProcesses(String id) {
        Started s = running.remove(id);
        if (s != null) {
            SlotStarts.kill(s.process());
            starts.release(s.slot(), id);
        }
    }

    /**
     * Stops every sandbox this provisioner started and empties the warm pool (the platform provisions the sandboxes
     * again at its next start); provisioning asked for afterwards is refused, so nothing is made behind this.
     */
    @PreDestroy
    void stopAll() {
        closed = true;
        pool.close(); // outside the lock: the filler it waits for takes none, and starts in flight make their own
        lock.writeLock().lock();
        try {
            relay.close();
            for (String id : List.copyOf(running.keySet())) {
                stopProcesses(id);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
