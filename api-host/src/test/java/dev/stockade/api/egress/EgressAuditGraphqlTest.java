package dev.stockade.api.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.impact.RecordedDecision;
import dev.stockade.policy.impact.TrailEntries;
import dev.stockade.policy.model.OperationType;
import dev.stockade.proxy.AuditEvent;
import dev.stockade.proxy.EgressReason;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An egress decision a GraphQL fence judged reaches the platform's trail with the operations it judged in its details,
 * through the real audit appender and database, and reads back (as {@code policy impact} reads the trail) into the
 * same summary; a decision no fence read carries none.
 */
@MicronautTest(transactional = false)
class EgressAuditGraphqlTest extends PlatformTest {
    @Inject
    AuditAppender appender;
    @Inject
    UnmeteredCalls unmetered;

    @Test
    void theJudgedOperationsAreStoredInTheDetailsAndReadBackForReplay() {
        String owner = ownerToken();
        String org = createOrg(owner, "graphql-details");
        String project = createProject(owner, org, "agents");
        String sandbox = UUID.randomUUID().toString();
        EgressAudit audit = new EgressAudit(appender, name -> sandbox.equals(name)
                ? new EgressAudit.Owner(UUID.fromString(org), UUID.fromString(project)) : null, unmetered);
        GraphqlSummary judged = new GraphqlSummary(List.of(
                new GraphqlSummary.Operation(0, OperationType.QUERY, null, List.of("viewer")),
                new GraphqlSummary.Operation(1, OperationType.MUTATION, "File", List.of("createIssue"))), false);
        audit.record(AuditEvent.builder().time(Instant.parse("2026-11-20T10:00:00Z")).listener("intercepted")
                .sandbox(sandbox).target("api.github.com", 443).method("POST").path("/graphql").verdict("deny")
                .reason(EgressReason.GRAPHQL_FIELD_DENIED).policy("agent").entry(0).rule(1).status(403)
                .graphql(judged).build());
        audit.record(AuditEvent.builder().time(Instant.parse("2026-11-20T10:00:01Z")).listener("intercepted")
                .sandbox(sandbox).target("api.github.com", 443).method("GET").path("/repos").verdict("allow")
                .reason(EgressReason.RULE_ALLOW).status(200).build());

        String trail = "/v1/orgs/" + org + "/audit-trail?kind=egress&limit=10";
        Await.until("both egress entries in the trail", Await.LONG,
                () -> http.get(trail, owner).body().path("items").size() == 2);
        JsonNode fenced = null;
        JsonNode plain = null;
        for (JsonNode item : http.get(trail, owner).body().path("items")) {
            if ("/graphql".equals(item.path("details").path("path").asText())) {
                fenced = item;
            } else {
                plain = item;
            }
        }
        assertThat(fenced).isNotNull();
        assertThat(plain).isNotNull();
        JsonNode graphql = fenced.path("details").path("graphql");
        assertThat(graphql.path("truncated").asBoolean(true)).isFalse();
        assertThat(graphql.path("operations").get(1).path("type").asText()).isEqualTo("mutation");
        assertThat(graphql.path("operations").get(1).path("name").asText()).isEqualTo("File");
        assertThat(graphql.path("operations").get(1).path("fields").get(0).asText()).isEqualTo("createIssue");
        assertThat(graphql.path("operations").get(1).path("element").asInt()).isEqualTo(1);
        assertThat(plain.path("details").has("graphql")).isFalse();

        // the entry as the trail answers it is what replay and suggest read: the same operations come back
        assertThat(TrailEntries.read(fenced)).isInstanceOfSatisfying(RecordedDecision.Egress.class,
                e -> assertThat(e.graphql()).isEqualTo(judged));
        assertThat(TrailEntries.read(plain)).isInstanceOfSatisfying(RecordedDecision.Egress.class,
                e -> assertThat(e.graphql()).isNull());
    }
}
