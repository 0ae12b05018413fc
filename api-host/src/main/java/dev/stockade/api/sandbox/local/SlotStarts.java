package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host side of a local sandbox's start: a slot made ready (its network, its cgroups, a launcher waiting in both),
 * handed to a sandbox or discarded, and a slot given back. {@link LocalProvisioner} orders the calls; what this class
 * touches is the host's (slot files, namespaces, veths, cgroups, processes).
 */
final class SlotStarts {
    private static final Logger LOG = LoggerFactory.getLogger(SlotStarts.class);

    /**
     * A start made ready: a slot with its network, and a launcher in the slot's cgroups and namespace waiting for a
     * sandbox's arguments, its output going to {@code console} until the sandbox's folder takes the file.
     */
    record Ready(int slot, Process launcher, Path console) {
    }

    /** Where the platform's relay listens on the bridge; asked when a namespace is made (it may start the relay). */
    interface RelayPort {
        int port() throws ProvisionException;
    }

    private final Path root;
    private final LocalNetwork network;
    private final HostSlots slots;
    private final RelayPort relay;

    SlotStarts(Path root, LocalNetwork network, HostSlots slots, RelayPort relay) {
        this.root = root;
        this.network = network;
        this.slots = slots;
        this.relay = relay;
    }

    /**
     * Claims a slot, makes its network (namespace, veth pair on the bridge, address, route) and starts a launcher in
     * its cgroups and namespace. A warm entry ({@code sandbox} empty) makes its network at the lowest CPU priority
     * and is ready once its launcher has become bubblewrap.
     */
    Ready prepare(String sandbox) throws ProvisionException {
        network.ensureBridge();
        int slot = slots.claim(sandbox);
        try {
            network.attach(slot, relay.port(), sandbox.isEmpty()); // a warm entry yields to the starts it serves
            Path console = Volumes.console(root, slot);
            Cgroups.killAll(Cgroups.ofSlot(slot)); // the slot is ours now: what an earlier holder left there goes
            Process launcher = Bubblewrap.launcher(LocalNetwork.namespacePath(slot),
                    Cgroups.create(Cgroups.ofSlot(slot)), console);
            // a warm entry is ready once its launcher waits; a start making its own hands the options over at once
            if (sandbox.isEmpty() && !Bubblewrap.awaitLauncher(launcher)) {
                kill(launcher);
                throw new ProvisionException("the sandbox launcher did not start: " + Bubblewrap.tail(console));
            }
            return new Ready(slot, launcher, console);
        } catch (ProvisionException | RuntimeException e) {
            release(slot, sandbox);
            throw e;
        }
    }

    /**
     * A warm entry whose slot is still this run's, whose network is still in place and whose launcher still waits;
     * an entry that lost any is dropped (its remains taken down if the slot is still ours) and the next one tried.
     */
    Optional<Ready> takeIntact(WarmPool<Ready> pool) {
        for (Optional<Ready> warm = pool.take(); warm.isPresent(); warm = pool.take()) {
            Ready r = warm.get();
            if (slots.ours(r.slot()) && network.intact(r.slot()) && r.launcher().isAlive()) {
                return warm;
            }
            LOG.warn("sandbox warm-pool entry {} lost its network slot, namespace or launcher; not used", r.slot());
            discard(r, "");
        }
        return Optional.empty();
    }

    /** Stops a ready entry's launcher and gives its slot back. */
    void discard(Ready r, String sandbox) {
        kill(r.launcher());
        release(r.slot(), sandbox);
    }

    /**
     * Takes a slot's network down, then frees the slot: a free slot never has a namespace left. A slot whose file no
     * longer carries this run's claim was reclaimed (and may serve another platform now): it is left alone.
     */
    void release(int slot, String sandbox) {
        boolean ours = slots.ours(slot);
        if (ours) {
            network.detach(slot);
            Cgroups.killAll(Cgroups.ofSlot(slot));
            Cgroups.remove(Cgroups.ofSlot(slot));
        }
        if (!sandbox.isEmpty()) {
            Cgroups.remove(groupOfSandbox(sandbox)); // a group of an older platform, named by its sandbox
        }
        if (ours) {
            slots.free(slot);
        }
    }

    /**
     * Kills a process tree and waits (briefly) for its root to be gone, so that its cgroups can be removed; bubblewrap's
     * namespace init takes the rest of the sandbox's pid namespace with it.
     */
    static void kill(Process p) {
        ProcessTree.killDescendants(p.pid());
        p.destroyForcibly();
        try {
            p.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The cgroup name platforms before slot-named groups gave a sandbox: its id's first 12 hex digits. */
    static String groupOfSandbox(String id) {
        return id.replace("-", "").substring(0, 12);
    }
}
