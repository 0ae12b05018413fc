package dev.stockade.api.governance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.config.InferenceFacts;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.policy.compiler.BlockedDomain;
import dev.stockade.policy.compiler.DescribeRows;
import dev.stockade.policy.compiler.NarrowedDomain;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.compiler.ResolutionTooLarge;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.ManagedInference;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceMap;
import io.micronaut.core.annotation.Introspected;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Effective policies: which stored documents reach an agent, and the core's resolution of them. The host only
 * selects documents; merging, clipping, drift and the environment plan are {@link Resolver}'s. The org ceiling is
 * every org policy of the organization (spec: an org policy is "reusable, and a ceiling on what projects may grant");
 * several ceiling policies merge as the core merges them.
 */
@Singleton
public class Effective {
    /** Documents that reach an agent, each with its stored name. */
    public record Documents(List<JsonNode> ceiling, List<JsonNode> grants) {
        public Documents {
            ceiling = List.copyOf(ceiling);
            grants = List.copyOf(grants);
        }
    }

    private final Sql jdbc;
    private final ObjectMapper json;
    private final InferenceFacts inference;

    public Effective(Sql jdbc, ObjectMapper json, InferenceFacts inference) {
        this.jdbc = jdbc;
        this.json = json;
        this.inference = inference;
    }

    /** The org ceiling: every org policy of the organization, oldest first. */
    public List<JsonNode> ceiling(UUID orgId) {
        return documents("SELECT document::text FROM policies WHERE org_id = ? AND project_id IS NULL"
                + " ORDER BY created_at, id", orgId);
    }

    /**
     * The policies bound to a user or an API token in a project: org-level bindings first, then project-level ones,
     * each in binding order; a policy bound twice counts once.
     */
    public List<JsonNode> grantsFor(UUID orgId, UUID projectId, String subjectType, UUID subjectId) {
        return documents("SELECT p.document::text FROM policy_bindings b JOIN policies p ON p.id = b.policy_id"
                + " WHERE b.org_id = ? AND (b.project_id IS NULL OR b.project_id = ?) AND b.subject_type = ?"
                + " AND b.subject_id = ? GROUP BY p.id, p.document::text"
                + " ORDER BY min(CASE WHEN b.project_id IS NULL THEN 0 ELSE 1 END), min(b.created_at), p.id",
                orgId, projectId, subjectType, subjectId);
    }

    /**
     * The stored document of one policy of the organization (org or any of its projects), or none when it does not
     * exist (deleted since it was attached: it grants nothing).
     */
    public List<JsonNode> policy(UUID orgId, UUID id) {
        return documents("SELECT document::text FROM policies WHERE org_id = ? AND id = ?", orgId, id);
    }

    /** The stored documents of the given policy ids that belong to the organization (org or any of its projects). */
    public List<JsonNode> policies(UUID orgId, List<UUID> ids) {
        List<JsonNode> out = new ArrayList<>();
        for (UUID id : ids) {
            List<JsonNode> one = documents("SELECT document::text FROM policies WHERE org_id = ? AND id = ?",
                    orgId, id);
            if (one.isEmpty()) {
                throw ApiProblem.notFound("policy `" + id + "`");
            }
            out.addAll(one);
        }
        return out;
    }

    /**
     * The core's resolution of {@code docs} in {@code orgId} (whose inference keys decide the default backend); a
     * resolution beyond the core's bounds is a 422 problem.
     */
    public Resolution resolve(UUID orgId, Documents docs) {
        try {
            return Resolver.resolve(inference.forOrg(orgId), bind(docs.ceiling()), bind(docs.grants()));
        } catch (ResolutionTooLarge e) {
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, e.getMessage());
        }
    }

    /** A resolution as the API shows it: describe rows, environment plan, connector grants, inference, drift. */
    @Introspected
    public record View(List<String> domains, Map<String, String> sandboxEnv, List<ConnectorGrant> connectorGrants,
                       ManagedInference managedInference, Drift drift) {
    }

    /** What a project asked for beyond the org ceiling: domains narrowed, and domains blocked with why. */
    @Introspected
    public record Drift(List<NarrowedDomain> narrowedDomains, List<BlockedDomain> blockedDomainDetails) {
    }

    /** The view of a resolution. */
    public static View view(Resolution r) {
        return new View(DescribeRows.of(r.effective()), r.sandboxEnv(), r.connectorGrants(), r.managedInference(),
                driftView(r));
    }

    /** {@code narrowedDomains} and {@code blockedDomainDetails} of a resolution. */
    public static Drift driftView(Resolution r) {
        return new Drift(r.drift().narrowedDomains(), r.drift().blockedDomainDetails());
    }

    /** Stored documents were checked by the core at write; one that no longer binds is skipped, loudly. */
    private static List<Policy> bind(List<JsonNode> docs) {
        List<Policy> out = new ArrayList<>(docs.size());
        for (JsonNode doc : docs) {
            String name = doc.path("name").asText("policy");
            ReadResult r = PolicyReader.fromTree(doc, SourceMap.empty(), name, doc.toString());
            if (!r.valid()) {
                throw new ApiProblem(ProblemCode.VALIDATION_FAILED, "stored policy `" + name
                        + "` no longer passes validation; update it");
            }
            out.add(r.policy());
        }
        return out;
    }

    private List<JsonNode> documents(String sql, Object... params) {
        return jdbc.query(sql, Arrays.asList(params), rs -> read(rs.getString(1)));
    }

    private JsonNode read(String text) {
        try {
            return json.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
