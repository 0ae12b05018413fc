package dev.stockade.api.kernel.net;

import dev.stockade.policy.eval.HostName;
import dev.stockade.policy.eval.ParsedHost;
import dev.stockade.proxy.dial.DialGuard;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.hc.client5.http.DnsResolver;

/**
 * The only name resolution of the platform's guarded outbound clients (connectors, the cluster proxy): the host is
 * read by the core's one grammar ({@link HostName}), then the egress proxy's dial guard resolves it and checks every
 * address, and the connection goes to the address it returned. There is no second lookup between the check and
 * the dial for a DNS answer to change (rebinding to loopback, link-local or metadata addresses).
 */
public final class GuardedResolver implements DnsResolver {
    /** The guard refused the host; the message says why (no credential, no header). */
    public static final class Refused extends UnknownHostException {
        private static final long serialVersionUID = 1L;

        Refused(String why) {
            super(why);
        }
    }

    private final DialGuard guard;

    public GuardedResolver(DialGuard guard) {
        this.guard = guard;
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        // INVARIANT: the core's host grammar first, as in the egress proxy: an address in any inet_aton form
        // is judged as the address it is, and a form libc and Java read differently (0177.0.0.1) is refused
        ParsedHost parsed = HostName.parse(host);
        if (parsed instanceof HostName.Refused r) {
            throw new Refused("`" + host + "` is not a host: " + r.why());
        }
        DialGuard.Outcome outcome = guard.check(((HostName) parsed).value());
        if (outcome instanceof DialGuard.Refused r) {
            throw new Refused(r.why());
        }
        return new InetAddress[] {((DialGuard.Allowed) outcome).address()};
    }

    @Override
    public String resolveCanonicalHostname(String host) {
        return host;
    }
}
