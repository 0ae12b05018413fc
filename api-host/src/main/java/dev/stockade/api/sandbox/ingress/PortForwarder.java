package dev.stockade.api.sandbox.ingress;

import dev.stockade.api.kernel.net.OutboundClients;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.ServerHttpRequest;
import io.micronaut.http.server.types.files.StreamedFile;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Forwards one HTTP request to a port inside a sandbox and streams the answer back: the body is streamed both ways,
 * hop-by-hop headers are dropped, {@code X-Forwarded-Host}, {@code -Proto} and {@code -For} say what the caller
 * asked. On a private port the caller's credentials (the {@code Authorization} header and the session cookie) never
 * reach the sandbox, and identity headers a client sent are replaced by the ingress's own.
 */
@Singleton
final class PortForwarder {
    /** Headers that belong to one connection, or that the JDK client sets itself. */
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host",
            "content-length", "expect", "x-forwarded-user-id", "x-forwarded-user-display-name", "x-forwarded-host",
            "x-forwarded-proto", "x-forwarded-for");

    private final HttpClient client = OutboundClients.trustedBuilder(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();

    MutableHttpResponse<?> forward(HttpRequest<?> request, InetSocketAddress address, Map<String, String> identity,
                                   boolean privatePort) {
        String target = "http://" + address.getAddress().getHostAddress() + ":" + address.getPort()
                + request.getUri().getRawPath() + (request.getUri().getRawQuery() == null ? ""
                : "?" + request.getUri().getRawQuery());
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(URI.create(target))
                .timeout(Duration.ofMinutes(5)).method(request.getMethodName(), body(request));
        forwardedHeaders(request, identity, privatePort).forEach(h -> b.header(h.getKey(), h.getValue()));
        java.net.http.HttpResponse<InputStream> answer;
        try {
            answer = client.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw new ApiProblem(ProblemCode.PORT_UNREACHABLE, "port " + address.getPort()
                    + " of the sandbox did not answer in time");
        } catch (IOException e) {
            throw new ApiProblem(ProblemCode.PORT_UNREACHABLE, "nothing answers on port " + address.getPort()
                    + " of the sandbox");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiProblem(ProblemCode.PORT_UNREACHABLE, "interrupted");
        }
        return response(answer);
    }

    /**
     * The headers a request carries to the sandbox: the caller's minus hop-by-hop ones, minus the caller's credentials
     * on a private port, plus the ingress's identity and {@code X-Forwarded-*} headers (the ones a client sent are
     * dropped). The same for a plain request and a WebSocket handshake.
     */
    static List<Map.Entry<String, String>> forwardedHeaders(HttpRequest<?> request, Map<String, String> identity,
                                                            boolean privatePort) {
        List<Map.Entry<String, String>> out = new java.util.ArrayList<>();
        request.getHeaders().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (NOT_FORWARDED.contains(lower) || (privatePort && lower.equals("authorization"))) {
                return;
            }
            if (privatePort && lower.equals("cookie")) {
                values.stream().map(PortForwarder::withoutSession).filter(v -> !v.isEmpty())
                        .forEach(v -> out.add(Map.entry(name, v)));
                return;
            }
            values.forEach(v -> out.add(Map.entry(name, v)));
        });
        identity.forEach((k, v) -> out.add(Map.entry(k, v)));
        String host = request.getHeaders().get(HttpHeaders.HOST);
        if (host != null) {
            out.add(Map.entry("X-Forwarded-Host", host));
        }
        out.add(Map.entry("X-Forwarded-Proto", request.isSecure() ? "https" : "http"));
        out.add(Map.entry("X-Forwarded-For", request.getRemoteAddress().getAddress().getHostAddress()));
        return out;
    }

    private static java.net.http.HttpRequest.BodyPublisher body(HttpRequest<?> request) {
        boolean has = request.getContentLength() > 0 || request.getHeaders().contains("Transfer-Encoding");
        if (!has || !(request instanceof ServerHttpRequest<?> server)) {
            return java.net.http.HttpRequest.BodyPublishers.noBody();
        }
        InputStream in = server.byteBody().split().toInputStream();
        return request.getContentLength() > 0
                ? java.net.http.HttpRequest.BodyPublishers.fromPublisher(
                        java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> in), request.getContentLength())
                : java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> in);
    }

    private static MutableHttpResponse<?> response(java.net.http.HttpResponse<InputStream> answer) {
        MutableHttpResponse<StreamedFile> out = HttpResponse.<StreamedFile>ok().status(answer.statusCode());
        answer.headers().map().forEach((name, values) -> {
            if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                values.forEach(v -> out.header(name, v));
            }
        });
        if (answer.statusCode() == 204 || answer.statusCode() == 304) {
            try {
                answer.body().close();
            } catch (IOException e) {
                // no body was sent
            }
            return out;
        }
        String type = answer.headers().firstValue("content-type").orElse(MediaType.APPLICATION_OCTET_STREAM);
        return out.body(new StreamedFile(answer.body(), MediaType.of(type)));
    }

    /** A Cookie header without the platform's session cookie (the sandbox never sees the caller's session). */
    static String withoutSession(String cookieHeader) {
        List<String> kept = java.util.Arrays.stream(cookieHeader.split(";")).map(String::strip)
                .filter(c -> !c.isEmpty() && !c.startsWith(IngressAuth.SESSION_COOKIE + "="))
                .collect(Collectors.toList());
        return String.join("; ", kept);
    }
}
