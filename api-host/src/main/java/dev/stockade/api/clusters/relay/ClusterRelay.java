package dev.stockade.api.clusters.relay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.stockade.api.clusters.RelayHub;
import dev.stockade.api.kernel.net.OutboundClients;
import dev.stockade.host.retry.Backoff;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Semaphore;

/**
 * The relay a customer runs inside a cluster the platform cannot dial: it long-polls the platform's
 * {@code /v1/clusters/{id}/relay/next} with the cluster's tunnel token, verifies each request's JWT against the
 * project's published keys ({@link RequestVerifier}), carries the request to the cluster's API server and posts the
 * answer back. With a service-account token it calls the API server as itself, impersonating the sandbox
 * ({@code Impersonate-User}) and its project's RBAC group ({@code Impersonate-Group}); without one it passes the
 * request JWT on, for an API server that verifies the platform's tokens itself. An exec, attach or port-forward
 * handshake is carried on a thread of its own by {@link RelayStream}.
 */
public final class ClusterRelay implements Runnable {
    /** Answers larger than this are refused: they must fit the platform's request size limit once in base64. */
    static final int MAX_ANSWER_BYTES = 700 * 1024;
    /** Streams (exec, attach, port-forward) the relay carries at once; each holds a thread and two sockets. */
    static final int MAX_STREAMS = 64;

    /** How the relay is set up (see {@link RelayCommand}). */
    public record Settings(URI platform, UUID clusterId, UUID projectId, String tunnelToken, URI apiServer,
                           HttpClient apiClient, Path serviceAccountTokenFile) {
        @Override
        public String toString() {
            return "Settings[" + platform + ", cluster " + clusterId + "]"; // never the tunnel token
        }
    }

    /** The platform refused the tunnel token (rotated, or the cluster deleted): the relay stops. */
    public static final class TunnelRefused extends RuntimeException {
        TunnelRefused() {
            super("the platform refused the tunnel token (rotated, or the cluster was deleted)", null, false, false);
        }
    }

    // its own mapper: the relay runs in the user's cluster as the `relay` command, outside the platform's
    // application context, so there is no mapper bean to inject
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Settings settings;
    private final HttpClient platform = OutboundClients.trusted(Duration.ofSeconds(10));
    private final RequestVerifier verifier;
    private volatile boolean stopped;
    private final Semaphore streams = new Semaphore(MAX_STREAMS);

    /** One second at first, as the relay always waited; at most 30 s while the platform stays away. */
    private final Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

    public ClusterRelay(Settings settings) {
        this.settings = settings;
        this.verifier = new RequestVerifier(settings.clusterId(), settings.projectId(), this::fetchKeys);
    }

    /** Polls and serves until {@link #stop()} or until the platform refuses the token ({@link TunnelRefused}). */
    @Override
    public void run() {
        while (!stopped) {
            try {
                if (step()) {
                    backoff.reset();
                } else {
                    backoff.pause(); // the platform failed the poll: poll again shortly
                }
            } catch (IOException e) {
                pauseQuietly(); // the platform is unreachable: poll again shortly
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public void stop() {
        stopped = true;
    }

    /** One long poll, and the request it brought if any; whether the platform answered the poll as it should. */
    boolean step() throws IOException, InterruptedException {
        HttpResponse<byte[]> polled = platform.send(tunnel("/next").POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(90)).build(), HttpResponse.BodyHandlers.ofByteArray());
        if (polled.statusCode() == 401) {
            stopped = true;
            throw new TunnelRefused();
        }
        if (polled.statusCode() != 200) {
            return polled.statusCode() == 204;
        }
        RelayHub.Envelope envelope = JSON.readValue(polled.body(), RelayHub.Envelope.class);
        if (RelayStream.isUpgrade(envelope)) {
            stream(envelope);
            return true;
        }
        post(envelope, serve(envelope));
        return true;
    }

    private void post(RelayHub.Envelope envelope, RelayHub.Answer answer) throws IOException, InterruptedException {
        platform.send(tunnel("/answers/" + UUID.fromString(envelope.id()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(answer))).build(),
                HttpResponse.BodyHandlers.discarding());
    }

    /**
     * An exec, attach or port-forward handshake: verified as any request, then carried on a thread of its own (the
     * stream lasts as long as the sandbox keeps it), at most {@value #MAX_STREAMS} at once.
     */
    private void stream(RelayHub.Envelope e) throws IOException, InterruptedException {
        String refusal = verifier.refusal(e, new byte[0]);
        if (refusal != null) {
            post(e, status(403, "Forbidden", "the relay refused the request: " + refusal));
            return;
        }
        if (!streams.tryAcquire()) {
            post(e, status(429, "TooManyRequests", "the relay carries at most " + MAX_STREAMS + " streams at once"));
            return;
        }
        Thread carrier = new Thread(() -> {
            try {
                RelayHub.Answer refused = RelayStream.carry(new RelayStream.Ends(settings.apiServer(),
                        settings.apiClient().sslContext(), settings.platform(), settings.clusterId().toString(),
                        settings.tunnelToken()), e, authorization(e));
                if (refused != null) {
                    post(e, refused);
                }
            } catch (IOException | IllegalArgumentException | java.text.ParseException ex) {
                postQuietly(e, status(502, "BadGateway", "the relay could not carry the stream ("
                        + ex.getClass().getSimpleName() + ")"));
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            } finally {
                streams.release();
            }
        }, "relay-stream-" + e.id());
        carrier.setDaemon(true);
        carrier.start();
    }

    private void postQuietly(RelayHub.Envelope e, RelayHub.Answer answer) {
        try {
            post(e, answer);
        } catch (IOException ex) {
            // the platform stops waiting on its own (clusters.response-timeout)
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * How the relay authenticates at the API server: as itself impersonating the sandbox and its group (with a
     * service-account token), or with the request JWT for a server that verifies the platform's tokens.
     */
    private Map<String, List<String>> authorization(RelayHub.Envelope e) throws IOException, java.text.ParseException {
        Map<String, List<String>> auth = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        if (settings.serviceAccountTokenFile() == null) {
            auth.put("Authorization", List.of("Bearer " + e.token()));
            return auth;
        }
        JWTClaimsSet claims = SignedJWT.parse(e.token()).getJWTClaimsSet();
        auth.put("Authorization", List.of("Bearer " + Files.readString(settings.serviceAccountTokenFile()).strip()));
        auth.put("Impersonate-User", List.of(claims.getSubject()));
        auth.put("Impersonate-Group", List.copyOf(claims.getStringListClaim("groups")));
        return auth;
    }

    /** Verifies the request and carries it to the API server; a refused or failed request is answered as such. */
    public RelayHub.Answer serve(RelayHub.Envelope e) {
        byte[] body = e.body() == null ? new byte[0] : Base64.getDecoder().decode(e.body());
        String refusal = verifier.refusal(e, body);
        if (refusal != null) {
            return status(403, "Forbidden", "the relay refused the request: " + refusal);
        }
        try {
            HttpRequest.Builder out = HttpRequest.newBuilder(URI.create(settings.apiServer() + e.path()))
                    .timeout(Duration.ofSeconds(60)).method(e.method(), body.length == 0
                            ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            e.headers().forEach((name, values) -> values.forEach(v -> out.header(name, v)));
            authorization(e).forEach((name, values) -> values.forEach(v -> out.header(name, v)));
            HttpResponse<byte[]> r = settings.apiClient().send(out.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.body().length > MAX_ANSWER_BYTES) {
                return status(502, "BadGateway", "the API server's answer is larger than the relay carries ("
                        + MAX_ANSWER_BYTES / 1024 + " KiB); narrow the request (limit, fieldSelector)");
            }
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            r.headers().map().forEach((k, v) -> {
                if (!k.startsWith(":")) {
                    headers.put(k, v);
                }
            });
            return new RelayHub.Answer(r.statusCode(), headers, Base64.getEncoder().encodeToString(r.body()));
        } catch (IOException | java.text.ParseException ex) {
            return status(502, "BadGateway", "the relay could not reach the API server ("
                    + ex.getClass().getSimpleName() + ")");
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return status(502, "BadGateway", "the relay was interrupted");
        }
    }

    private JWKSet fetchKeys() throws IOException, InterruptedException {
        HttpResponse<String> r = platform.send(HttpRequest.newBuilder(settings.platform().resolve(
                "/v1/projects/" + settings.projectId() + "/.well-known/jwks.json")).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString());
        try {
            return JWKSet.parse(r.body());
        } catch (java.text.ParseException e) {
            throw new IOException("the platform's key set is not a JWK set", e);
        }
    }

    private HttpRequest.Builder tunnel(String suffix) {
        return HttpRequest.newBuilder(settings.platform().resolve("/v1/clusters/" + settings.clusterId() + "/relay"
                + suffix)).header("Authorization", "Bearer " + settings.tunnelToken());
    }

    /** A Kubernetes {@code Status} object, as the API server itself answers a failure. */
    private static RelayHub.Answer status(int code, String reason, String message) {
        Map<String, Object> status = Map.of("kind", "Status", "apiVersion", "v1", "status", "Failure",
                "reason", reason, "code", code, "message", message);
        try {
            return new RelayHub.Answer(code, Map.of("Content-Type", List.of("application/json")),
                    Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(status)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void pauseQuietly() {
        try {
            backoff.pause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
