package dev.stockade.api.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.stockade.api.governance.Effective;
import dev.stockade.api.halt.HaltService;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.audit.AuditOutcome;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.sandbox.SandboxPolicies;
import dev.stockade.api.sandbox.SandboxService;
import dev.stockade.policy.model.Integration;
import dev.stockade.policy.model.IntegrationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * Serves a sandbox short-lived credentials for an AWS connection its current policy names: the platform assumes the
 * connection's role through STS (external ID, a session named after the sandbox) and hands the sandbox the temporary
 * credentials, never its own. Checked on every request, so a halt or a policy that stops naming the connection refuses
 * the next refresh; answers are cached per (sandbox, connection) and replaced well before they expire.
 */
@Singleton
public class AwsCredentialsIssuer {
    /** A cached answer, with the revision of the connection it was assumed for. */
    private record Issued(ServedCredentials served, Instant expiresAt, Instant connectionUpdatedAt) {
    }

    private record Key(UUID sandboxId, UUID connectionId) {
    }

    private final SandboxService sandboxes;
    private final SandboxPolicies policies;
    private final Effective effective;
    private final HaltService halt;
    private final AwsConnectionService connections;
    private final StsEndpoints endpoints;
    private final AwsCredentialsProvider source;
    private final AuditLog audit;
    private final AwsSettings settings;
    private final Clock clock;
    private final Cache<Key, Issued> cache = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(Duration.ofHours(12)).build();

    public AwsCredentialsIssuer(SandboxService sandboxes, SandboxPolicies policies, Effective effective,
                                HaltService halt,
                                AwsConnectionService connections, StsEndpoints endpoints,
                                @Named(SourceCredentials.NAME) AwsCredentialsProvider source, AuditLog audit,
                                AwsSettings settings, Clock clock) {
        this.sandboxes = sandboxes;
        this.policies = policies;
        this.effective = effective;
        this.halt = halt;
        this.connections = connections;
        this.endpoints = endpoints;
        this.source = source;
        this.audit = audit;
        this.settings = settings;
        this.clock = clock;
    }

    /** The credentials for connection {@code name} of the calling sandbox, or a problem saying why not (audited). */
    public ServedCredentials issue(Identity.SandboxToken caller, String name) {
        Sandbox s = sandboxes.byToken(caller.tokenId()).orElseThrow(() ->
                new ApiProblem(ProblemCode.FORBIDDEN, "this token was issued to no sandbox"));
        AwsConnection c = connections.byName(s.projectId(), name).orElse(null);
        if (c == null) {
            throw ApiProblem.notFound("AWS connection `" + name + "` in the sandbox's project");
        }
        if (halt.get(s.orgId()).halted()) {
            cache.invalidate(new Key(s.id(), c.id()));
            throw refuse(caller, s, c, "halted", new ApiProblem(ProblemCode.HALTED,
                    "the organization is halted: no AWS credentials are served"));
        }
        if (!names(s, name)) {
            cache.invalidate(new Key(s.id(), c.id()));
            throw refuse(caller, s, c, "not-named", new ApiProblem(ProblemCode.FORBIDDEN,
                    "the sandbox's policy does not name AWS connection `" + name + "`"));
        }
        Key key = new Key(s.id(), c.id());
        Issued cached = cache.getIfPresent(key);
        Instant now = clock.instant();
        if (cached != null && cached.connectionUpdatedAt.equals(c.updatedAt())
                && cached.expiresAt.minus(settings.refreshBefore()).isAfter(now)) {
            return cached.served;
        }
        Issued fresh = assume(caller, s, c);
        cache.put(key, fresh);
        return fresh.served;
    }

    /** Whether the sandbox's attached and embedded policies name the connection, within the ceiling if it lists any. */
    private boolean names(Sandbox s, String name) {
        List<JsonNode> ceiling = effective.ceiling(s.orgId());
        for (JsonNode doc : ceiling) {
            List<Integration> limit = read(doc).integrations();
            if (limit != null && !limit.contains(new Integration(IntegrationType.AWS_CONNECTION, name))) {
                return false;
            }
        }
        return policies.grants(s.orgId(), s.config()).stream().map(AwsCredentialsIssuer::read)
                .map(Policy::integrations).filter(java.util.Objects::nonNull).flatMap(List::stream)
                .anyMatch(i -> i.type() == IntegrationType.AWS_CONNECTION && i.name().equals(name));
    }

    private static Policy read(JsonNode document) {
        return PolicyReader.read("policy", document.toString()).policy();
    }

    private Issued assume(Identity.SandboxToken caller, Sandbox s, AwsConnection c) {
        AssumeRoleResponse answer;
        try (StsClient sts = endpoints.client(c, source)) {
            answer = sts.assumeRole(r -> r.roleArn(c.roleArn()).externalId(c.externalId())
                    .roleSessionName("stockade-" + s.id()).durationSeconds(c.sessionDurationSeconds()));
        } catch (SdkException e) {
            audit.record(AwsConnectionService.event("assume-role", caller, c).outcome(AuditOutcome.ERROR)
                    .detail("sandboxId", s.id().toString()).detail("why", reason(e)).build());
            throw new ApiProblem(ProblemCode.UPSTREAM_FAILED,
                    "STS refused to assume the role of AWS connection `" + c.name() + "`: " + reason(e));
        }
        Credentials k = answer.credentials();
        audit.record(AwsConnectionService.event("assume-role", caller, c).detail("sandboxId", s.id().toString())
                .detail("accessKeyId", k.accessKeyId()).detail("expiration", k.expiration().toString()).build());
        ServedCredentials served = new ServedCredentials(k.accessKeyId(), k.secretAccessKey(), k.sessionToken(),
                k.expiration().toString(), answer.assumedRoleUser() == null ? c.roleArn()
                        : answer.assumedRoleUser().arn());
        return new Issued(served, k.expiration(), c.updatedAt());
    }

    /** STS's error code and message, or the exception's class: never a credential (STS echoes none). */
    private static String reason(SdkException e) {
        if (e instanceof software.amazon.awssdk.awscore.exception.AwsServiceException a
                && a.awsErrorDetails() != null) {
            return a.awsErrorDetails().errorCode() + " " + a.awsErrorDetails().errorMessage();
        }
        return e.getClass().getSimpleName();
    }

    private RuntimeException refuse(Identity.SandboxToken caller, Sandbox s, AwsConnection c, String why,
                                    ApiProblem problem) {
        audit.record(AwsConnectionService.event("credentials", caller, c).outcome(AuditOutcome.DENIED)
                .detail("sandboxId", s.id().toString()).detail("why", why).build());
        return problem;
    }
}
