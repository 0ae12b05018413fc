package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local provisioner's network: one bridge ({@code stk0}, the gateway address) on the host, and per sandbox a
 * network namespace joined to it by a veth pair whose bridge port is isolated (sandboxes cannot reach each other).
 * Inside the namespace the only route is a host route to the gateway address, where the egress proxy listens: no
 * default route, no other address reachable, so every byte out goes through the proxy. The platform's relay on the
 * gateway also answers at {@link #LINK_LOCAL_PLATFORM} port 80, mapped inside the namespace (no route is added).
 */
final class LocalNetwork {
    static final String BRIDGE = "stk0";
    /**
     * Where a sandbox also reaches the platform: the address of ECS's container credentials endpoint, one of the few
     * plain-http hosts the AWS SDKs accept in {@code AWS_CONTAINER_CREDENTIALS_FULL_URI} (besides loopback).
     */
    static final String LINK_LOCAL_PLATFORM = "169.254.170.2";
    private static final Logger LOG = LoggerFactory.getLogger(LocalNetwork.class);
    /** nftables maps the link-local address; a host without it still runs sandboxes, without AWS credentials. */
    private static final boolean NFT = Files.isExecutable(Path.of("/usr/sbin/nft"))
            || Files.isExecutable(Path.of("/sbin/nft"));
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    /** Where the pid of each slot's namespace holder is kept ({@code /run} is emptied at boot, with the processes). */
    static final Path HOLDERS = Path.of("/run/stockade/netns");
    private static final String HOLDER_ENV = "STOCKADE_NETNS=";
    /** Runs a command in the namespace of the holder whose pid the making shell keeps in {@code $h}. */
    private static final String INSIDE = "nsenter --net=/proc/$h/ns/net ";

    private final String gatewayCidr;
    private final InetAddress gateway;
    private final int prefix;

    /** {@code cidr} like {@code 10.213.0.1/16}: the gateway address and the pool sandboxes take addresses from. */
    LocalNetwork(String cidr) {
        String[] parts = cidr.split("/");
        try {
            this.gateway = InetAddress.getByName(parts[0]);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("sandbox.local.network `" + cidr + "` is not an IPv4 CIDR");
        }
        this.prefix = Integer.parseInt(parts[1]);
        if (gateway.getAddress().length != 4 || prefix < 8 || prefix > 24) {
            throw new IllegalArgumentException("sandbox.local.network must be IPv4 with a prefix of 8 to 24");
        }
        this.gatewayCidr = cidr;
    }

    String gateway() {
        return gateway.getHostAddress();
    }

    private volatile boolean bridgeReady;

    /** Creates the bridge once (idempotent; checked once per process; the warm pool and a start may race here). */
    synchronized void ensureBridge() throws ProvisionException {
        if (bridgeReady) {
            return;
        }
        makeBridge();
        bridgeReady = true;
    }

    private void makeBridge() throws ProvisionException {
        if (!Files.isDirectory(Path.of("/sys/class/net", BRIDGE))) {
            // another platform may create it at the same moment: its bridge is as good as ours
            Shell.quiet(List.of("ip", "link", "add", BRIDGE, "address", bridgeAddress(), "type", "bridge"));
        }
        pinAddress();
        Shell.quiet(List.of("ip", "addr", "add", gatewayCidr, "dev", BRIDGE));
        Shell.run(List.of("ip", "link", "set", BRIDGE, "up"));
    }

    /**
     * Fixes the bridge's MAC address. Left to the kernel, a bridge takes the lowest MAC among its ports and changes
     * it whenever ports come and go; a sandbox that resolved the gateway before the port with that MAC left sends to
     * an address nobody answers until its neighbour entry expires (tens of seconds of connect timeouts). A bridge
     * made by an older platform keeps the address it has now, so the sandboxes already running keep theirs.
     */
    private void pinAddress() throws ProvisionException {
        try {
            Path dev = Path.of("/sys/class/net", BRIDGE);
            if (Files.readString(dev.resolve("addr_assign_type")).strip().equals(ADDRESS_SET)) {
                return;
            }
            String now = Files.readString(dev.resolve("address")).strip();
            String pinned = now.equals("00:00:00:00:00:00") ? bridgeAddress() : now;
            Shell.run(List.of("ip", "link", "set", BRIDGE, "address", pinned));
        } catch (java.io.IOException e) {
            throw new ProvisionException("cannot read the sandbox bridge `" + BRIDGE + "`: " + e.getMessage());
        }
    }

    /** The kernel's {@code NET_ADDR_SET}: the address was chosen, so the bridge no longer follows its ports. */
    private static final String ADDRESS_SET = "3";

    /**
     * The bridge's own MAC: locally administered, derived from the gateway address (the bridge has no uplink, so it
     * needs to be unique on this host only, and a fixed value reads the same in every capture).
     */
    String bridgeAddress() {
        byte[] a = gateway.getAddress();
        return String.format("02:53:%02x:%02x:%02x:%02x", a[0] & 0xff, a[1] & 0xff, a[2] & 0xff, a[3] & 0xff);
    }

    /** The address of sandbox slot {@code index} (0-based): gateway + 1 + index. */
    String address(int index) {
        byte[] a = gateway.getAddress();
        long v = ((a[0] & 0xffL) << 24 | (a[1] & 0xffL) << 16 | (a[2] & 0xffL) << 8 | (a[3] & 0xffL)) + 1 + index;
        return ((v >> 24) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 8) & 0xff) + "." + (v & 0xff);
    }

    /** How many sandbox addresses the pool has. */
    int capacity() {
        return (1 << (32 - prefix)) - 3;
    }

    /**
     * Creates the slot's namespace, held by a process, with a veth to the bridge, its address, and one route: to the
     * gateway. The namespace is never a mount under {@code /run/netns}: every bubblewrap start copies the host's mount
     * table, and a mount made or removed there propagates into every running sandbox's mount namespace, so a mount per
     * sandbox made starts and teardowns slower as sandboxes accumulated. The holder ({@code sleep infinity}) carries
     * {@code STOCKADE_NETNS=<ns>} as its environment, so a recorded pid is only ever taken for it while it is that
     * holder; its pid is recorded before anything else, so a failed step still finds it to remove. The links are made
     * by one {@code ip} on the host and one inside (the veth's inner end is named {@code eth0} as it is made in the
     * namespace): a third of the time of an {@code ip} per step, which the warm pool spends beside the starts.
     */
    private List<String> steps(int slot, int platformPort) {
        String hostIf = hostInterface(slot);
        List<String> inside = new java.util.ArrayList<>(List.of("addr add " + address(slot) + "/32 dev eth0",
                "link set lo up", "link set eth0 up", "route add " + gateway() + "/32 dev eth0"));
        List<String> steps = new java.util.ArrayList<>(List.of(
                cleanup(slot),
                "mkdir -p " + HOLDERS,
                "{ env -i " + HOLDER_ENV + namespace(slot) + " PATH=/usr/bin:/bin unshare --net sleep infinity"
                        + " </dev/null >/dev/null 2>&1 & h=$!; }",
                "{ i=0; while read c < /proc/$h/comm && [ \"$c\" != sleep ] && [ $i -lt 100000 ]; do i=$((i+1)); done; }",
                "{ [ \"$c\" = sleep ] || { echo 'cannot make a network namespace (unshare --net)'; false; }; }",
                "echo $h > " + holderFile(slot),
                batch("", List.of("link add " + hostIf + " type veth peer name eth0 netns $h",
                        "link set " + hostIf + " master " + BRIDGE,
                        "link set dev " + hostIf + " type bridge_slave isolated on",
                        "link set " + hostIf + " up"))));
        if (linkLocalRules()) {
            inside.add("addr add " + LINK_LOCAL_PLATFORM + "/32 dev lo");
        }
        steps.add(batch(INSIDE, inside));
        if (linkLocalRules()) {
            steps.add(INSIDE + "nft '" + natRules(address(slot), platformPort) + "'");
        }
        return steps;
    }

    /**
     * One {@code ip} for several commands ({@code ip -batch}, which stops at the first that fails): each process start
     * costs more than the command it runs. {@code prefix} runs it elsewhere (inside the namespace).
     */
    private static String batch(String prefix, List<String> commands) {
        StringBuilder printf = new StringBuilder("printf '%s\\n'");
        commands.forEach(c -> printf.append(" \"").append(c).append('"'));
        return printf + " | " + prefix + "ip -batch -";
    }

    /** Whether the namespace maps the link-local platform address (nftables present); says once when not. */
    private static boolean linkLocalRules() {
        if (!NFT && WARNED.compareAndSet(false, true)) {
            LOG.warn("nft is not installed (Debian: nftables): local sandboxes start without the AWS credentials"
                    + " endpoint at {}, so AWS connections do not reach their SDKs", LINK_LOCAL_PLATFORM);
        }
        return NFT;
    }

    /**
     * The platform at {@link #LINK_LOCAL_PLATFORM} port 80 inside the namespace, as ECS serves task credentials: the
     * address is local to the namespace (on {@code lo}, so no route is added and nothing else leaves), and the
     * namespace's own NAT sends its port 80 to the platform relay at {@code gateway:platformPort}, with the sandbox's
     * address as the source so the answer comes back. Other ports of the address are refused at once. The sandbox
     * cannot change these rules: its user namespace holds no capability over the network namespace.
     */
    private String natRules(String address, int platformPort) {
        return "add table ip stockade; "
                + "add chain ip stockade out { type nat hook output priority -100; }; "
                + "add rule ip stockade out ip daddr " + LINK_LOCAL_PLATFORM + " tcp dport 80 dnat to " + gateway()
                + ":" + platformPort + "; "
                + "add chain ip stockade post { type nat hook postrouting priority 100; }; "
                + "add rule ip stockade post oifname \"eth0\" ip saddr " + LINK_LOCAL_PLATFORM + " snat to " + address;
    }

    /**
     * Kills the slot's namespace holder, removes the veth and the holder's record, and forgets the address's neighbour
     * entry on the bridge; never fails. Nothing else is left in the namespace: a sandbox's processes are in its pid
     * namespace, which dies with its init (and with the platform). A slot an older platform made (a mount under
     * {@code /run/netns}) is emptied and removed as it was made. The neighbour entry would outlive the veth with its
     * MAC, and the next namespace at the address has another: the host would send to the old one until it expired.
     */
    private String cleanup(int slot) {
        String ns = namespace(slot);
        String file = holderFile(slot).toString();
        return "{ h=; read h < " + file + " 2>/dev/null; if [ -n \"$h\" ] && grep -qzx " + HOLDER_ENV + ns
                + " /proc/$h/environ 2>/dev/null; then kill -KILL $h; fi; if [ -e /run/netns/" + ns + " ]; then"
                + " for p in $(ip netns pids " + ns + " 2>/dev/null); do kill -KILL $p; done; ip netns del " + ns
                + " 2>/dev/null; fi; printf '%s\\n' 'link del " + hostInterface(slot) + "' 'neigh flush to "
                + address(slot) + " dev " + BRIDGE + "' | ip -force -batch - >/dev/null 2>&1; rm -f " + file
                + "; true; }";
    }

    /**
     * Makes slot {@code slot}'s network: its namespace, veth pair on the bridge, address and route, and the platform
     * relay's {@code platformPort} at {@link #LINK_LOCAL_PLATFORM}. One shell runs every step (a process start from the
     * JVM costs more than the steps); the names and the address are the provisioner's own (numbers, a dotted quad),
     * never input. {@code background}: made ahead of demand, at the lowest CPU priority, so that it yields to the
     * starts it is made for.
     */
    void attach(int slot, int platformPort, boolean background) throws ProvisionException {
        Shell.run(shell(String.join(" && ", steps(slot, platformPort)), background));
    }

    /** {@code sh -c script}, under {@code nice -n 19} when it is background work. */
    private static List<String> shell(String script, boolean background) {
        return background ? List.of("nice", "-n", "19", "/bin/sh", "-c", script) : List.of("/bin/sh", "-c", script);
    }

    /**
     * Whether slot {@code slot}'s network is still in place: its namespace exists and its veth is a port of the bridge.
     * Both can go without this platform knowing (a platform reclaiming what it takes for an earlier run's, a bridge
     * removed and made again), and a sandbox started on such an entry would report running with no way out.
     */
    boolean intact(int slot) {
        Path master = Path.of("/sys/class/net", hostInterface(slot), "master");
        try {
            return holder(slot).isPresent()
                    && Files.readSymbolicLink(master).getFileName().toString().equals(BRIDGE);
        } catch (java.io.IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * Takes slot {@code slot}'s network down (idempotent), at the lowest CPU priority: nothing waits for it but the
     * slot's next use, and the starts running beside it come first.
     */
    void detach(int slot) {
        Shell.quiet(shell(cleanup(slot), true));
    }

    /** The name of a slot's namespace, in its holder's environment (and the mount of an older platform's slot). */
    static String namespace(int slot) {
        return "stk-n" + slot;
    }

    /** The slot's namespace for {@code nsenter --net}: its holder's. */
    static Path namespacePath(int slot) throws ProvisionException {
        long pid = holder(slot).orElseThrow(() -> new ProvisionException("the sandbox's network namespace is gone"));
        return Path.of("/proc", Long.toString(pid), "ns", "net");
    }

    /** The pid of the process holding slot {@code slot}'s namespace, while that process is its holder. */
    static java.util.OptionalLong holder(int slot) {
        try {
            long pid = Long.parseLong(Files.readString(holderFile(slot)).strip());
            String env = Files.readString(Path.of("/proc", Long.toString(pid), "environ"));
            // the holder's whole environment is this variable first (and PATH): a reused pid is not taken for it
            return env.startsWith(HOLDER_ENV + namespace(slot) + "\0") ? java.util.OptionalLong.of(pid)
                    : java.util.OptionalLong.empty();
        } catch (java.io.IOException | NumberFormatException e) {
            return java.util.OptionalLong.empty();
        }
    }

    private static Path holderFile(int slot) {
        return HOLDERS.resolve(Integer.toString(slot));
    }

    /** The host side of the slot's veth pair. */
    static String hostInterface(int slot) {
        return "vn" + slot;
    }
}
