package dev.stockade.api.clusters;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an upgrade request to the cluster proxy asks for: the wire protocol it switches to and the pod subresource it
 * streams. Only the three streaming subresources of a pod are carried, so an upgrade cannot open a tunnel to anything
 * else the API server proxies (a service, a node, a pod's own {@code proxy} subresource).
 */
record StreamKind(Protocol protocol, Verb verb) {
    /** The protocol named by the {@code Upgrade} header: WebSocket, or SPDY/3.1 as kubectl before 1.29 speaks. */
    enum Protocol {
        WEBSOCKET("websocket"), SPDY("SPDY/3.1");

        final String token;

        Protocol(String token) {
            this.token = token;
        }

        /** The protocol an {@code Upgrade} header names, if it is one the proxy carries. */
        static Optional<Protocol> of(String upgrade) {
            if (upgrade == null) {
                return Optional.empty();
            }
            for (Protocol p : values()) {
                if (p.token.equalsIgnoreCase(upgrade.strip())) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        }
    }

    /** The pod subresource, named as the API server's RBAC names it ({@code pods/exec}, ...). */
    enum Verb {
        EXEC, ATTACH, PORTFORWARD;

        String subresource() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Pattern POD_STREAM = Pattern.compile(
            "/api/v1/namespaces/[^/]+/pods/[^/]+/(exec|attach|portforward)");

    /** The subresource of a checked proxy path ({@link ProxyPaths#check}); 400 for any other path. */
    static Verb verb(String checkedPath) {
        Matcher m = POD_STREAM.matcher(checkedPath);
        if (!m.matches()) {
            throw new ApiProblem(ProblemCode.INVALID_PARAMETER, "the cluster proxy upgrades only a pod's exec, attach"
                    + " and portforward (`/api/v1/namespaces/{namespace}/pods/{name}/exec`), not `" + checkedPath + "`");
        }
        return Verb.valueOf(m.group(1).toUpperCase(Locale.ROOT));
    }
}
