package dev.stockade.proxy.dial;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.security.Security;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resolves a host once and refuses addresses an agent must never reach through the proxy: loopback,
 * link-local (cloud metadata), unspecified, multicast, broadcast, the proxy's own addresses, private
 * ranges (unless allowed for the whole install, or for the host names given as private hosts),
 * configured extra ranges, and the IPv4-mapped, IPv4-compatible and NAT64 forms of all of them. The
 * caller connects to the address returned, never re-resolving.
 */
public final class DialGuard {

    /** The outcome of a dial check. */
    public sealed interface Outcome permits Allowed, Refused {
    }

    /** Dial this exact address. */
    public record Allowed(InetAddress address) implements Outcome {
    }

    /** Do not dial; {@code why} is safe to show to the client (no secrets). */
    public record Refused(String why) implements Outcome {
    }

    private static final List<Cidr> PRIVATE = List.of(
            Cidr.parse("10.0.0.0/8"), Cidr.parse("172.16.0.0/12"), Cidr.parse("192.168.0.0/16"),
            Cidr.parse("100.64.0.0/10"), Cidr.parse("fc00::/7"));
    private static final List<Cidr> ALWAYS = List.of(
            Cidr.parse("0.0.0.0/8"), Cidr.parse("127.0.0.0/8"), Cidr.parse("169.254.0.0/16"),
            Cidr.parse("224.0.0.0/4"), Cidr.parse("240.0.0.0/4"), Cidr.parse("::/128"), Cidr.parse("::1/128"),
            Cidr.parse("fe80::/10"), Cidr.parse("ff00::/8"), Cidr.parse("fec0::/10"));
    private static final List<Cidr> LOOPBACK = List.of(Cidr.parse("127.0.0.0/8"), Cidr.parse("::1/128"));

    private final boolean allowLoopbackUnsafe;
    private final boolean allowPrivate;
    /** Host names (domain globs) that may resolve to private ranges even though the install refuses them. */
    private final List<Glob> privateHosts;
    private final List<Cidr> extraDeny;
    private final Map<String, String> overrides;
    private final Set<InetAddress> own;
    /** Names resolved lately, so an event loop can dial them without a lookup; {@code null}: off. */
    private final Cache<String, List<InetAddress>> recent = recentAnswers();
    private static final int RECENT_ANSWERS = 4_096;

    public DialGuard(boolean allowLoopbackUnsafe, boolean allowPrivate, List<String> extraDenyCidrs,
                     Map<String, String> overrides) {
        this(allowLoopbackUnsafe, allowPrivate, List.of(), extraDenyCidrs, overrides);
    }

    /**
     * @param privateHostPatterns host names allowed to resolve to private ranges (the opt-out per entry),
     *                            in the policy's domain-pattern syntax; each must pass {@link #privateHostError}
     */
    public DialGuard(boolean allowLoopbackUnsafe, boolean allowPrivate, List<String> privateHostPatterns,
                     List<String> extraDenyCidrs, Map<String, String> overrides) {
        this.allowLoopbackUnsafe = allowLoopbackUnsafe;
        this.allowPrivate = allowPrivate;
        this.privateHosts = privateHostPatterns.stream().map(p -> {
            String error = privateHostError(p);
            if (error != null) {
                throw new IllegalArgumentException(error);
            }
            return Glob.compile(GlobKind.DOMAIN, p).glob();
        }).toList();
        this.extraDeny = extraDenyCidrs.stream().map(Cidr::parse).toList();
        this.overrides = overrides;
        this.own = ownAddresses();
    }

    /** Resolves {@code host} (a normalised name or IP literal) and checks every address it yields. */
    public Outcome check(String host) {
        List<InetAddress> addresses;
        try {
            addresses = resolve(host);
        } catch (UnknownHostException e) {
            return new Refused("`" + host + "` does not resolve");
        }
        return judge(host, addresses);
    }

    /**
     * {@link #check} when it needs no DNS lookup, so an event loop may call it: an IP literal, a
     * {@code --resolve} override, or a name resolved within the JVM's positive DNS cache time
     * ({@code networkaddress.cache.ttl}, 30 s by default). {@code null} when only a lookup can tell.
     */
    public Outcome checkWithoutLookup(String host) {
        String override = overrides.get(host);
        if (override != null || IpLiterals.parse(host) != null) {
            return check(host); // no lookup: a literal, or an override (which is never looked up)
        }
        List<InetAddress> addresses = recent == null ? null : recent.getIfPresent(host);
        return addresses == null ? null : judge(host, addresses);
    }

    /**
     * Why {@code pattern} cannot name private hosts, or {@code null} when it can: it must be a domain
     * pattern of the policy's syntax ({@code git.corp.example}, {@code *.corp.example}) and not an
     * address, since an address range is opted out for the whole install or not at all.
     */
    public static String privateHostError(String pattern) {
        if (pattern == null || pattern.isBlank()) {
            return "a private host pattern is empty";
        }
        if (IpLiterals.parse(pattern) != null) {
            return "private host `" + pattern + "` is an address; name the host (private ranges are opted out"
                    + " by name, or for the whole install with --allow-private-ranges)";
        }
        GlobResult compiled = Glob.compile(GlobKind.DOMAIN, pattern);
        if (!compiled.ok() || compiled.glob() == null) {
            return "private host `" + pattern + "` is not a domain pattern: " + compiled.errors().get(0).message();
        }
        return null;
    }

    /**
     * Whether {@code host} may resolve to private ranges: the install allows them, or it is a name
     * opted out. Asked only for a private address, so a dial that meets none pays nothing for it.
     */
    private boolean privateAllowedFor(String host) {
        if (allowPrivate) {
            return true;
        }
        if (host == null || privateHosts.isEmpty() || IpLiterals.parse(host) != null) {
            return false; // an address is not a host name: only the install-wide opt-out covers it
        }
        for (Glob g : privateHosts) {
            if (g.matches(host)) {
                return true;
            }
        }
        return false;
    }

    private Outcome judge(String host, List<InetAddress> addresses) {
        if (addresses.isEmpty()) {
            return new Refused("`" + host + "` does not resolve");
        }
        // INVARIANT: every resolved address must pass; one forbidden address refuses the host, so a
        // name that also resolves to a metadata or loopback address is never dialed
        for (InetAddress a : addresses) {
            String why = forbidden(a, host);
            if (why != null) {
                return new Refused("`" + host + "` resolves to " + why + " address " + a.getHostAddress());
            }
        }
        return new Allowed(addresses.get(0));
    }

    /** Why an address is forbidden, or {@code null} when it may be dialed (private ranges as the install says). */
    public String forbidden(InetAddress raw) {
        return forbidden(raw, null);
    }

    /** As above, for an address {@code host} resolved to ({@code null}: no name, the install's rule). */
    private String forbidden(InetAddress raw, String host) {
        InetAddress a = unwrap(raw);
        if (allowLoopbackUnsafe && LOOPBACK.stream().anyMatch(c -> c.contains(a))) {
            return null;
        }
        if (a.isLoopbackAddress() || LOOPBACK.stream().anyMatch(c -> c.contains(a))) {
            return "a loopback";
        }
        if (a.isAnyLocalAddress()) {
            return "an unspecified";
        }
        if (a.isLinkLocalAddress()) {
            return "a link-local";
        }
        if (a.isMulticastAddress()) {
            return "a multicast";
        }
        if (ALWAYS.stream().anyMatch(c -> c.contains(a)) || isBroadcast(a)) {
            return "a reserved";
        }
        if (own.contains(a)) {
            return "the proxy's own";
        }
        if ((a.isSiteLocalAddress() || PRIVATE.stream().anyMatch(c -> c.contains(a))) && !privateAllowedFor(host)) {
            return "a private";
        }
        if (extraDeny.stream().anyMatch(c -> c.contains(a) || c.contains(raw))) {
            return "a denied";
        }
        return null;
    }

    /** Whether {@code address} (already unwrapped) is one of this host's interface addresses. */
    public boolean isOwn(InetAddress address) {
        return own.contains(address);
    }

    /** The IPv4 address inside IPv4-mapped, IPv4-compatible and NAT64 (64:ff9b::/96) IPv6 forms. */
    public static InetAddress unwrap(InetAddress a) {
        if (!(a instanceof Inet6Address)) {
            return a;
        }
        byte[] b = a.getAddress();
        boolean zero80 = true;
        for (int i = 0; i < 10; i++) {
            zero80 &= b[i] == 0;
        }
        boolean mapped = zero80 && b[10] == (byte) 0xff && b[11] == (byte) 0xff;
        boolean compatible = zero80 && b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0);
        boolean nat64 = b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b;
        for (int i = 4; nat64 && i < 12; i++) {
            nat64 = b[i] == 0;
        }
        if (mapped || compatible || nat64) {
            return Cidr.toAddress(new byte[] {b[12], b[13], b[14], b[15]});
        }
        return a;
    }

    private static boolean isBroadcast(InetAddress a) {
        return a instanceof Inet4Address && a.getHostAddress().equals("255.255.255.255");
    }

    private List<InetAddress> resolve(String host) throws UnknownHostException {
        String override = overrides.get(host);
        String target = override != null ? override : host;
        byte[] literal = IpLiterals.parse(target);
        if (literal != null) {
            return List.of(InetAddress.getByAddress(literal));
        }
        if (override != null) {
            throw new UnknownHostException(host);
        }
        List<InetAddress> out = List.of(InetAddress.getAllByName(host));
        if (recent != null && !out.isEmpty()) {
            recent.put(host, out);
        }
        return out;
    }

    /**
     * What the JVM's own resolver keeps a positive answer for: {@code networkaddress.cache.ttl}
     * seconds, 30 when unset; 0 keeps nothing ({@code null}), a negative value keeps it for good.
     */
    private static Cache<String, List<InetAddress>> recentAnswers() {
        long seconds = 30;
        try {
            String ttl = Security.getProperty("networkaddress.cache.ttl");
            if (ttl != null) {
                seconds = Long.parseLong(ttl.trim());
            }
        } catch (NumberFormatException e) {
            // the JVM ignores a malformed value too
        }
        if (seconds == 0) {
            return null;
        }
        Caffeine<Object, Object> b = Caffeine.newBuilder().maximumSize(RECENT_ANSWERS);
        return (seconds > 0 ? b.expireAfterWrite(Duration.ofSeconds(seconds)) : b).build();
    }

    private static Set<InetAddress> ownAddresses() {
        Set<InetAddress> out = new HashSet<>();
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                    if (!a.isLoopbackAddress()) {
                        out.add(unwrap(a));
                    }
                }
            }
        } catch (SocketException e) {
            // no interface list: loopback and ranges still guard
        }
        return Set.copyOf(out);
    }
}
