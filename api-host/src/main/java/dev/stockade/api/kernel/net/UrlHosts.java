package dev.stockade.api.kernel.net;

import dev.stockade.policy.eval.HostName;
import dev.stockade.policy.eval.ParsedHost;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * Reads the host of a URL a user named (a connector, a cluster's API server) by the core's one host grammar, as the
 * guarded resolver does when it dials. Java's {@link URI} reads {@code 127.1} or {@code 0x7f.0.0.1} as no host at all
 * (a registry authority), so such a URL was refused as malformed although the dial guard would judge it as the
 * address it is; here it becomes the same URL with the address written as its dotted quad, and the dial guard
 * judges that address like any other.
 */
public final class UrlHosts {
    private UrlHosts() {
    }

    /** {@code url} with a short IPv4 host written out; any other URL (or one the grammar refuses) unchanged. */
    public static URI readable(URI url) {
        if (url.getHost() != null || url.getRawAuthority() == null) {
            return url;
        }
        String authority = url.getRawAuthority();
        int at = authority.lastIndexOf('@');
        String userInfo = at < 0 ? null : authority.substring(0, at);
        String hostPort = authority.substring(at + 1);
        int colon = hostPort.lastIndexOf(':');
        String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
        String port = colon < 0 ? "" : hostPort.substring(colon);
        boolean portOk = port.isEmpty() || port.matches(":[0-9]{1,5}") && Integer.parseInt(port.substring(1)) <= 65535;
        ParsedHost parsed = portOk ? HostName.parse(host) : null;
        if (!(parsed instanceof HostName name) || name.kind() != HostName.Kind.IPV4) {
            return url;
        }
        StringBuilder b = new StringBuilder().append(url.getScheme()).append("://");
        if (userInfo != null) {
            b.append(userInfo).append('@');
        }
        b.append(name.value()).append(port).append(url.getRawPath() == null ? "" : url.getRawPath());
        if (url.getRawQuery() != null) {
            b.append('?').append(url.getRawQuery());
        }
        if (url.getRawFragment() != null) {
            b.append('#').append(url.getRawFragment());
        }
        try {
            return new URI(b.toString());
        } catch (URISyntaxException e) {
            return url;
        }
    }
}
