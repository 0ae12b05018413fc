package dev.stockade.api.clusters;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.stockade.api.halt.HaltService;
import dev.stockade.api.halt.OpenStreams;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.identity.ClusterTokens;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.net.GuardedClients;
import dev.stockade.api.kernel.net.GuardedResolver;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

/**
 * The cluster proxy: forwards a sandbox's Kubernetes API request to its project's cluster. The caller's cluster JWT
 * stays here; the cluster receives instead a short request JWT signed with the project's key ({@link #requestToken}),
 * bound to the method, path and body, which the cluster's relay or API server verifies with the project's published
 * keys. Only an allowlist of request headers crosses (never {@code Impersonate-*}, cookies or the caller's
 * {@code Authorization}); redirects are not followed; every dial passes the SSRF guard. Response bodies stream (a
 * watch or a log follow stays open) and are cut when the organization is halted ({@link OpenStreams}).
 */
@Singleton
record ClusterProxy(ClusterService clusters, ClusterTargets targets, ClusterTokens keys, HaltService halt,
        OpenStreams streams, RelayHub relays, AuditAppender audit, Clock clock) {
    /** How long a request JWT is valid: enough for the hop, too short to replay later. */
    static final Duration REQUEST_TOKEN_LIFETIME = Duration.ofSeconds(60);
    static final Set<String> REQUEST_HEADERS = Set.of("accept", "accept-encoding", "content-type",
            "content-encoding", "user-agent", "if-match", "if-none-match", "x-stream-protocol-version");
    static final Set<String> RESPONSE_HEADERS = Set.of("content-type", "content-encoding", "cache-control",
            "etag", "audit-id", "warning", "x-kubernetes-pf-flowschema-uid", "x-kubernetes-pf-prioritylevel-uid");

    /** What the cluster answered: status, the headers that may pass back, and the body as it arrives. */
    public record Answer(int status, Map<String, List<String>> headers, InputStream body) {
    }

    /**
     * Forwards one request. {@code rawPath} is the path after {@code /proxy} (percent-encoded as received), with
     * {@code rawQuery} ({@code null} for none).
     */
    public Answer forward(Identity.ClusterToken caller, UUID clusterId, String method, String rawPath, String rawQuery,
                          Map<String, List<String>> headers, byte[] body) {
        if (halt.get(caller.orgId()).halted()) {
            throw new ApiProblem(ProblemCode.HALTED, "the organization is halted: cluster access is stopped");
        }
        Cluster cluster = clusters.get(clusterId);
        String path = ProxyPaths.check(rawPath);
        if (cluster.apiServerUrl() == null) {
            return throughRelay(caller, cluster, method, path, rawQuery, headers, body);
        }
        URI target = URI.create(cluster.apiServerUrl() + path + (rawQuery == null ? "" : "?" + rawQuery));
        HttpUriRequestBase out = new HttpUriRequestBase(method, target);
        headers.forEach((name, values) -> {
            if (REQUEST_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                values.forEach(v -> out.addHeader(name, v));
            }
        });
        out.setHeader("Authorization", "Bearer " + requestToken(caller, cluster, method, path, rawQuery, body));
        if (body.length > 0) {
            out.setEntity(new ByteArrayEntity(body, null));
        }
        ClassicHttpResponse answer;
        InputStream stream;
        AtomicBoolean expired = new AtomicBoolean();
        ScheduledFuture<?> deadline = targets.headersDeadline(out, expired);
        try {
            answer = targets.client(cluster.caCertificate()).executeOpen(null, out, null);
            stream = GuardedClients.body(answer, out);
        } catch (IOException e) {
            record(caller, cluster, method, path, 502);
            throw unreachable(e, expired.get());
        } finally {
            deadline.cancel(false);
        }
        record(caller, cluster, method, path, answer.getCode());
        return new Answer(answer.getCode(), allowedResponseHeaders(headerMap(answer)),
                streams.track(caller.orgId(), stream));
    }

    private ApiProblem unreachable(IOException e, boolean expired) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof GuardedResolver.Refused r) {
                return new ApiProblem(ProblemCode.CLUSTER_UNREACHABLE, "the cluster's API server is not dialed: "
                        + r.getMessage());
            }
        }
        return new ApiProblem(ProblemCode.CLUSTER_UNREACHABLE, expired
                ? "the cluster's API server did not answer within " + targets.settings().responseTimeout().toSeconds()
                        + " s"
                : "the cluster's API server did not answer (" + e.getClass().getSimpleName() + ")");
    }

    private static Map<String, List<String>> headerMap(ClassicHttpResponse answer) {
        Map<String, List<String>> map = new HashMap<>();
        for (Header h : answer.getHeaders()) {
            map.computeIfAbsent(h.getName(), k -> new ArrayList<>()).add(h.getValue());
        }
        return map;
    }

    /**
     * Hands the request to the cluster's relay and waits for its whole answer. Streaming requests ({@code watch},
     * {@code follow}) are refused: the relay carries complete answers only.
     */
    private Answer throughRelay(Identity.ClusterToken caller, Cluster cluster, String method, String path,
                                String rawQuery, Map<String, List<String>> headers, byte[] body) {
        if (rawQuery != null && rawQuery.matches("(.*&)?(watch|follow)=(true|1)(&.*)?")) {
            throw new ApiProblem(ProblemCode.INVALID_PARAMETER, "streaming requests (watch, follow) need a cluster"
                    + " with an API server URL: the relay carries whole answers only");
        }
        if (!relays.connected(cluster.id())) {
            throw new ApiProblem(ProblemCode.CLUSTER_UNREACHABLE, "cluster `" + cluster.id() + "` has no API server"
                    + " URL and its relay is not connected");
        }
        Map<String, List<String>> forwarded = new HashMap<>();
        headers.forEach((name, values) -> {
            if (REQUEST_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                forwarded.put(name, List.copyOf(values));
            }
        });
        String fullPath = path + (rawQuery == null ? "" : "?" + rawQuery);
        RelayHub.Envelope envelope = new RelayHub.Envelope(UUID.randomUUID().toString(), method, fullPath, forwarded,
                Base64.getEncoder().encodeToString(body), requestToken(caller, cluster, method, path, rawQuery, body));
        RelayHub.Answer answer;
        try {
            answer = relays.exchange(cluster.id(), envelope, targets.settings().responseTimeout());
        } catch (ApiProblem p) {
            record(caller, cluster, method, path, 502);
            throw p;
        }
        record(caller, cluster, method, path, answer.status());
        byte[] bytes;
        try {
            bytes = answer.body() == null ? new byte[0] : Base64.getDecoder().decode(answer.body());
        } catch (IllegalArgumentException e) {
            throw new ApiProblem(ProblemCode.CLUSTER_UNREACHABLE, "the cluster's relay answered with a body that is"
                    + " not base64");
        }
        return new Answer(answer.status(), allowedResponseHeaders(answer.headers()),
                new java.io.ByteArrayInputStream(bytes));
    }

    private static Map<String, List<String>> allowedResponseHeaders(Map<String, List<String>> headers) {
        Map<String, List<String>> back = new HashMap<>();
        if (headers != null) {
            headers.forEach((name, values) -> {
                if (RESPONSE_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT)) && values != null) {
                    back.put(name, List.copyOf(values));
                }
            });
        }
        return back;
    }

    /**
     * The JWT the cluster receives: issuer {@code {publicUrl}/projects/{projectId}}, audience
     * {@code stockade-cluster:<clusterId>}, the sandbox as subject, its project's RBAC group
     * ({@code <orgId>/<projectId>:member}) and the request it authorizes (method, path and query, body SHA-256).
     */
    String requestToken(Identity.ClusterToken caller, Cluster cluster, String method, String path,
                                String rawQuery, byte[] body) {
        Instant now = clock.instant();
        Map<String, Object> request = Map.of("method", method, "path", path + (rawQuery == null ? "" : "?" + rawQuery),
                "bodySha256", Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(body)));
        return keys.sign(cluster.projectId(), new JWTClaimsSet.Builder()
                .audience("stockade-cluster:" + cluster.id()).subject(caller.subject())
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plus(REQUEST_TOKEN_LIFETIME)))
                .jwtID(UUID.randomUUID().toString())
                .claim("groups", List.of(cluster.orgId() + "/" + cluster.projectId() + ":member"))
                .claim("request", request));
    }

    private void record(Identity.ClusterToken caller, Cluster cluster, String method, String path, int status) {
        audit.append(AuditEvent.of(AuditKind.CLUSTER_PROXY, method.toLowerCase(java.util.Locale.ROOT))
                .org(cluster.orgId()).project(cluster.projectId()).read(method.equals("GET"))
                .outcome(status < 400 ? AuditOutcome.SUCCESS : AuditOutcome.ERROR).by(caller)
                .target(cluster.id().toString()).details(Map.of("path", path, "status", status)).build());
    }

    private static byte[] sha256(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
