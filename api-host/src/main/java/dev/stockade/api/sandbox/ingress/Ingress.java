package dev.stockade.api.sandbox.ingress;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Problems;
import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.sandbox.SandboxConfig;
import dev.stockade.api.sandbox.SandboxService;
import dev.stockade.api.sandbox.SandboxState;
import dev.stockade.api.sandbox.provision.Provisioner;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sandbox ingress: a request for {@code <slug>.<sandboxIngress.host>} (the sandbox's first exposed port) or
 * {@code <port>-<slug>.<sandboxIngress.host>} goes to that port inside the sandbox. A private port requires a project
 * member ({@link IngressAuth}), counts as activity and starts an auto-stopped sandbox with {@code autoStart}; a
 * public port takes anyone and passes the {@code Authorization} header through to the sandbox. Failures are problem
 * details: 404 for a host no sandbox exposes, 503 for a sandbox that does not run, 502 when nothing listens.
 */
@Singleton
record Ingress(SandboxService sandboxes, Provisioner provisioner, IngressAuth auth, PortForwarder forwarder,
        Problems problems) {
    private static final Pattern PORT_LABEL = Pattern.compile("([0-9]{1,5})-(.+)");
    private static final Duration AUTO_START_WAIT = Duration.ofSeconds(60);

    /** The slug a host label names ({@code <slug>} or {@code <port>-<slug>}), without looking it up. */
    static Optional<String> slugOf(String label) {
        Matcher m = PORT_LABEL.matcher(label);
        return Optional.of(m.matches() ? m.group(2) : label);
    }

    /** Where an admitted request goes: the port's address, what the sandbox is told of the caller, its visibility. */
    record Route(Sandbox sandbox, InetSocketAddress address, Map<String, String> identity, boolean privatePort) {
    }

    HttpResponse<?> serve(HttpRequest<?> request, String label) {
        try {
            Sandbox sandbox = resolve(label);
            SandboxConfig.Port port = port(sandbox, label);
            String origin = request.getHeaders().get(HttpHeaders.ORIGIN);
            boolean priv = !"public".equals(port.visibility());
            if (priv && request.getMethod() == HttpMethod.OPTIONS && origin != null
                    && request.getHeaders().contains("Access-Control-Request-Method")) {
                return preflight(request, sandbox, origin);
            }
            Route route = admit(request, sandbox, port);
            MutableHttpResponse<?> out = forwarder.forward(request, route.address(), route.identity(), priv);
            if (priv && origin != null && auth.originAllowed(origin, route.sandbox())) {
                cors(out, origin);
            }
            return out;
        } catch (ApiProblem p) {
            return problems.response(p);
        }
    }

    /**
     * The route of a request for {@code label}, admitted exactly as {@link #serve} admits it (a WebSocket handshake
     * takes this path: it has no preflight); throws the refusal as an {@link ApiProblem}.
     */
    Route route(HttpRequest<?> request, String label) {
        Sandbox sandbox = resolve(label);
        return admit(request, sandbox, port(sandbox, label));
    }

    private Route admit(HttpRequest<?> request, Sandbox sandbox, SandboxConfig.Port port) {
        boolean priv = !"public".equals(port.visibility());
        Map<String, String> identity = Map.of();
        if (priv) {
            identity = auth.authorize(request, sandbox).headers();
            sandbox = awaitActivity(sandbox);
        }
        return new Route(sandbox, address(sandbox, port), identity, priv);
    }

    private InetSocketAddress address(Sandbox sandbox, SandboxConfig.Port port) {
        if (sandbox.state() != SandboxState.RUNNING) {
            throw new ApiProblem(ProblemCode.SANDBOX_NOT_RUNNING, "sandbox `" + sandbox.name() + "` is "
                    + sandbox.state());
        }
        return provisioner.portAddress(sandbox.id().toString(), port.port()).orElseThrow(() -> new ApiProblem(
                ProblemCode.SANDBOX_NOT_RUNNING, "sandbox `" + sandbox.name() + "` is not reachable"));
    }

    private Sandbox resolve(String label) {
        Optional<Sandbox> exact = sandboxes.bySlug(label);
        if (exact.isPresent()) {
            return exact.get();
        }
        Matcher m = PORT_LABEL.matcher(label);
        return (m.matches() ? sandboxes.bySlug(m.group(2)) : Optional.<Sandbox>empty())
                .orElseThrow(() -> ApiProblem.notFound("no sandbox exposes `" + label + "`"));
    }

    /** The exposed port a label names: the first for the bare slug, the numbered one otherwise. */
    private static SandboxConfig.Port port(Sandbox sandbox, String label) {
        var ports = sandbox.config().ports();
        if (label.equals(sandbox.slug())) {
            return ports.stream().findFirst().orElseThrow(() -> ApiProblem.notFound("sandbox `" + sandbox.name()
                    + "` exposes no port"));
        }
        int number = Integer.parseInt(label.substring(0, label.indexOf('-')));
        return ports.stream().filter(p -> p.port() == number).findFirst()
                .orElseThrow(() -> ApiProblem.notFound("sandbox `" + sandbox.name() + "` does not expose port "
                        + number));
    }

    private Sandbox awaitActivity(Sandbox sandbox) {
        try {
            return sandboxes.ensureRunning(sandbox.id(), AUTO_START_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiProblem(ProblemCode.SANDBOX_NOT_RUNNING, "interrupted while the sandbox started");
        }
    }

    private HttpResponse<?> preflight(HttpRequest<?> request, Sandbox sandbox, String origin) {
        if (!auth.originAllowed(origin, sandbox)) {
            throw new ApiProblem(ProblemCode.FORBIDDEN, "origin `" + origin + "` may not call this private port"
                    + " (sandboxIngress.corsOrigins)");
        }
        MutableHttpResponse<?> out = HttpResponse.noContent();
        cors(out, origin);
        out.header("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
        String asked = request.getHeaders().get("Access-Control-Request-Headers");
        out.header("Access-Control-Allow-Headers", asked == null ? "authorization, content-type" : asked);
        out.header("Access-Control-Max-Age", "600");
        return out;
    }

    private static void cors(MutableHttpResponse<?> out, String origin) {
        out.header("Access-Control-Allow-Origin", origin);
        out.header("Access-Control-Allow-Credentials", "true");
        out.header(HttpHeaders.VARY, "Origin");
    }
}
