package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.model.OperationType;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The audit line's named construction and its canonical JSON form, written and read back. */
class AuditEventTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void unsetIndexesMeanNoEntryAndNoRule() {
        AuditEvent e = AuditEvent.builder().time(Instant.EPOCH).verdict("deny").reason(EgressReason.DIAL_REFUSED)
                .target("evil.test", 443).build();
        assertThat(e.entry()).isEqualTo(-1);
        assertThat(e.rule()).isEqualTo(-1);
        assertThat(e.policy()).isNull();
        assertThat(e.toJson()).contains("\"host\":\"evil.test\",\"port\":443")
                .contains("\"reason\":\"dial-refused\"");
    }

    @Test
    void theJsonFormReadsBackToTheSameLine() throws Exception {
        AuditEvent e = AuditEvent.builder().time(Instant.parse("2026-01-02T03:04:05Z")).listener("intercepted")
                .sandbox("sb").caller("/usr/bin/git").target("api.github.com", 443).method("GET").path("/repos")
                .verdict("allow").transport("upstream").policy("p\"q").entry(2).rule(1)
                .reason(EgressReason.RULE_ALLOW).status(200).bytes(10, 2048).durationMs(7).build();
        assertThat(AuditEvent.fromJson(JSON.readTree(e.toJson()))).isEqualTo(e);
    }

    @Test
    void aGraphqlSummaryIsWrittenBeforeTheFlagAndReadBackAndAnOlderLineHasNone() throws Exception {
        GraphqlSummary judged = new GraphqlSummary(List.of(new GraphqlSummary.Operation(0, OperationType.MUTATION,
                "File", List.of("createIssue"))), false);
        AuditEvent e = AuditEvent.builder().time(Instant.parse("2026-01-02T03:04:05Z")).listener("intercepted")
                .sandbox("sb").target("api.openai.com", 443).method("POST").path("/graphql").verdict("deny")
                .reason(EgressReason.GRAPHQL_FIELD_DENIED).graphql(judged).build();
        assertThat(e.toJson()).endsWith(",\"durationMs\":0,\"graphql\":{\"operations\":[{\"element\":0,"
                + "\"type\":\"mutation\",\"name\":\"File\",\"fields\":[\"createIssue\"]}],\"truncated\":false},"
                + "\"unmeteredProvider\":\"openai\"}");
        assertThat(AuditEvent.fromJson(JSON.readTree(e.toJson()))).isEqualTo(e);
        String older = "{\"time\":\"2026-01-02T03:04:05Z\",\"verdict\":\"allow\",\"reason\":\"rule-allow\"}";
        assertThat(AuditEvent.fromJson(JSON.readTree(older)).graphql()).isNull();
        assertThat(AuditEvent.builder().time(Instant.EPOCH).verdict("allow").build().toJson()).doesNotContain("graphql");
    }

    @Test
    void aLineWithAGraphqlSummaryNoProxyWritesIsRefused() throws Exception {
        String forged = "{\"time\":\"2026-01-02T03:04:05Z\",\"verdict\":\"allow\",\"graphql\":{\"operations\":"
                + "[{\"element\":0,\"type\":\"query\",\"name\":null,\"fields\":[\"a } mutation { b\"]}],\"truncated\":false}}";
        assertThatThrownBy(() -> AuditEvent.fromJson(JSON.readTree(forged)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("audit line with a malformed graphql"
                        + " summary: graphql summary");
    }

    @Test
    void aLineWithoutTimeOrWithAnUnknownReasonIsRefused() throws Exception {
        assertThatThrownBy(() -> AuditEvent.builder().verdict("deny").build())
                .isInstanceOf(IllegalStateException.class);
        String unknown = "{\"time\":\"2026-01-02T03:04:05Z\",\"verdict\":\"deny\",\"reason\":\"made-up\"}";
        assertThatThrownBy(() -> AuditEvent.fromJson(JSON.readTree(unknown)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown reason");
    }

    @Test
    void aLineToAModelProvidersHostIsFlaggedAndOthersAreNot() throws Exception {
        AuditEvent direct = AuditEvent.builder().time(Instant.EPOCH).listener("http").sandbox("sb")
                .target("API.openai.com.", 80).method("POST").path("/v1/chat/completions").verdict("deny")
                .reason(EgressReason.DIAL_REFUSED).build();
        assertThat(direct.unmeteredProvider()).contains(ModelVendor.OPENAI);
        assertThat(JSON.readTree(direct.toJson()).path("unmeteredProvider").asText()).isEqualTo("openai");
        assertThat(AuditEvent.fromJson(JSON.readTree(direct.toJson())).unmeteredProvider()).contains(ModelVendor.OPENAI);

        AuditEvent other = AuditEvent.builder().time(Instant.EPOCH).verdict("allow").target("api.github.com", 443)
                .build();
        assertThat(other.unmeteredProvider()).isEmpty();
        assertThat(JSON.readTree(other.toJson()).has("unmeteredProvider")).isFalse();
    }
}
