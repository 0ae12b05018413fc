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
        bridgeReady = makeBridge();
    }

    private boolean makeBridge() throws ProvisionException {
        if (Shell.run(List.of("ip", "-o", "link", "show")).contains(" " + BRIDGE + ":")) {
            Shell.quiet(List.of("ip", "addr", "add", gatewayCidr, "dev", BRIDGE));
            Shell.run(List.of("ip", "link", "set", BRIDGE, "up"));
            return true;
        }
        Shell.run(List.of("ip", "link", "add", BRIDGE, "type", "bridge"));
        Shell.run(List.of("ip", "addr", "add", gatewayCidr, "dev", BRIDGE));
        Shell.run(List.of("ip", "link", "set", BRIDGE, "up"));
        return true;
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
     * Creates {@code ns} with a veth to the bridge, address {@code address}, and one route: to the gateway. One shell
     * runs every step (a process start from the JVM costs more than the steps); the names and the address are the
     * provisioner's own (hex ids, a dotted quad), never input.
     */
    void attach(String ns, String hostIf, String address) throws ProvisionException {
        Shell.run(List.of("/bin/sh", "-c", String.join(" && ", steps(ns, hostIf, address))));
    }

    private List<String> steps(String ns, String hostIf, String address) {
        String tmp = "vs" + hostIf.substring(2);
        return List.of(
                cleanup(ns, hostIf),
                "ip netns add " + ns,
                "ip link add " + hostIf + " type veth peer name " + tmp,
                "ip link set " + tmp + " netns " + ns,
                "ip link set " + hostIf + " master " + BRIDGE,
                "bridge link set dev " + hostIf + " isolated on",
                "ip link set " + hostIf + " up",
                "ip -n " + ns + " link set " + tmp + " name eth0",
                "ip -n " + ns + " addr add " + address + "/32 dev eth0",
                "ip -n " + ns + " link set lo up",
                "ip -n " + ns + " link set eth0 up",
                "ip -n " + ns + " route add " + gateway() + "/32 dev eth0");
    }

    /**
     * The platform at {@link #LINK_LOCAL_PLATFORM} port 80 inside {@code ns}, as ECS serves task credentials: the
     * address is local to the namespace (on {@code lo}, so no route is added and nothing else leaves), and the
     * namespace's own NAT sends its port 80 to the platform relay at {@code gateway:platformPort}, with the sandbox's
     * address as the source so the answer comes back. Other ports of the address are refused at once. The sandbox
     * cannot change these rules: its user namespace holds no capability over the network namespace.
     */
    private List<String> linkLocalPlatform(String ns, String address, int platformPort) {
        if (!NFT) {
            if (WARNED.compareAndSet(false, true)) {
                LOG.warn("nft is not installed (Debian: nftables): local sandboxes start without the AWS credentials"
                        + " endpoint at {}, so AWS connections do not reach their SDKs", LINK_LOCAL_PLATFORM);
            }
            return List.of();
        }
        String rules = "add table ip stockade; "
                + "add chain ip stockade out { type nat hook output priority -100; }; "
                + "add rule ip stockade out ip daddr " + LINK_LOCAL_PLATFORM + " tcp dport 80 dnat to " + gateway()
                + ":" + platformPort + "; "
                + "add chain ip stockade post { type nat hook postrouting priority 100; }; "
                + "add rule ip stockade post oifname \"eth0\" ip saddr " + LINK_LOCAL_PLATFORM + " snat to " + address;
        return List.of("ip -n " + ns + " addr add " + LINK_LOCAL_PLATFORM + "/32 dev lo",
                "nsenter --net=" + namespacePath(ns) + " nft '" + rules + "'");
    }

    /** Kills what runs in the namespace, then removes the veth and the namespace; never fails. */
    private static String cleanup(String ns, String hostIf) {
        return "{ for p in $(ip netns pids " + ns + " 2>/dev/null); do kill -KILL $p; done; ip link del " + hostIf
                + " 2>/dev/null; ip netns del " + ns + " 2>/dev/null; true; }";
    }

    /** Removes the namespace and the veth (idempotent); processes still in the namespace are killed first. */
    void detach(String ns, String hostIf) {
        Shell.quiet(List.of("/bin/sh", "-c", cleanup(ns, hostIf)));
    }

    /**
     * Makes slot {@code slot}'s network: its namespace, veth pair on the bridge, address and route, and the platform
     * relay's {@code platformPort} at {@link #LINK_LOCAL_PLATFORM}.
     */
    void attach(int slot, int platformPort) throws ProvisionException {
        String ns = namespace(slot);
        List<String> script = new java.util.ArrayList<>(steps(ns, hostInterface(slot), address(slot)));
        script.addAll(linkLocalPlatform(ns, address(slot), platformPort));
        Shell.run(List.of("/bin/sh", "-c", String.join(" && ", script)));
    }

    /** Takes slot {@code slot}'s network down (idempotent). */
    void detach(int slot) {
        detach(namespace(slot), hostInterface(slot));
    }

    /** The network namespace of a slot: named after the slot, so a pool entry needs no sandbox to be made. */
    static String namespace(int slot) {
        return "stk-n" + slot;
    }

    /** Where {@code ip netns} keeps the slot's namespace, for {@code nsenter --net}. */
    static java.nio.file.Path namespacePath(int slot) {
        return namespacePath(namespace(slot));
    }

    private static java.nio.file.Path namespacePath(String ns) {
        return java.nio.file.Path.of("/run/netns", ns);
    }

    /** The host side of the slot's veth pair. */
    static String hostInterface(int slot) {
        return "vn" + slot;
    }
}
