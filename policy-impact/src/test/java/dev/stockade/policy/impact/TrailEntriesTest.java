package dev.stockade.policy.impact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Verdict;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading exported entries: what each recorded field becomes, and what makes an entry unreplayable. */
class TrailEntriesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static RecordedDecision read(String json) throws Exception {
        return TrailEntries.read(JSON.readTree(json));
    }

    @Test
    void anInterceptedRequestKeepsItsMethodPathAndCaller() throws Exception {
        RecordedDecision d = read("{\"at\":\"2026-11-20T10:00:00Z\",\"kind\":\"egress\",\"action\":\"deny\","
                + "\"actor\":{\"type\":\"sandbox\",\"id\":\"sb\"},\"target\":\"api.github.com:8443\",\"details\":"
                + "{\"listener\":\"intercepted\",\"caller\":\"/usr/bin/gh\",\"method\":\"PUT\",\"path\":\"/a\","
                + "\"reason\":\"no-rule-matched\"}}");
        assertThat(d).isEqualTo(new RecordedDecision.Egress(Instant.parse("2026-11-20T10:00:00Z"), "sb",
                EgressListener.INTERCEPTED, "api.github.com", 8443, "PUT", "/a", "/usr/bin/gh", Verdict.DENY,
                "no-rule-matched"));
    }

    @Test
    void theGraphqlOperationsTheFenceJudgedAreReadAndAForgedSummaryIsNot() throws Exception {
        String head = "{\"at\":\"2026-11-20T10:00:00Z\",\"kind\":\"egress\",\"action\":\"allow\","
                + "\"actor\":{\"type\":\"sandbox\",\"id\":\"sb\"},\"target\":\"api.github.com:443\",\"details\":"
                + "{\"listener\":\"intercepted\",\"method\":\"POST\",\"path\":\"/graphql\",\"reason\":\"rule-allow\",";
        RecordedDecision d = read(head + "\"graphql\":{\"operations\":[{\"element\":0,\"type\":\"mutation\","
                + "\"name\":\"File\",\"fields\":[\"createIssue\"]}],\"truncated\":false}}}");
        assertThat(d).isEqualTo(new RecordedDecision.Egress(Instant.parse("2026-11-20T10:00:00Z"), "sb",
                EgressListener.INTERCEPTED, "api.github.com", 443, "POST", "/graphql", null, Verdict.ALLOW,
                "rule-allow", new GraphqlSummary(List.of(new GraphqlSummary.Operation(0, OperationType.MUTATION,
                        "File", List.of("createIssue"))), false)));
        // a summary no proxy writes (a field that is not a GraphQL name) is left out, never trusted
        RecordedDecision forged = read(head + "\"graphql\":{\"operations\":[{\"element\":0,\"type\":\"query\","
                + "\"name\":null,\"fields\":[\"a } mutation { b\"]}],\"truncated\":false}}}");
        assertThat(forged).isInstanceOfSatisfying(RecordedDecision.Egress.class,
                e -> assertThat(e.graphql()).isNull());
        // an older entry has none
        assertThat(read(head.substring(0, head.length() - 1) + "}}")).isInstanceOfSatisfying(
                RecordedDecision.Egress.class, e -> assertThat(e.graphql()).isNull());
    }

    @Test
    void anIpv6TargetLosesItsBrackets() throws Exception {
        RecordedDecision d = read("{\"at\":\"2026-11-20T10:00:00Z\",\"kind\":\"egress\",\"action\":\"allow\","
                + "\"actor\":{\"type\":\"sandbox\",\"id\":\"sb\"},\"target\":\"[2001:db8::1]:443\",\"details\":"
                + "{\"listener\":\"connect\",\"reason\":\"entry-allow\"}}");
        assertThat(d).isInstanceOfSatisfying(RecordedDecision.Egress.class, e -> {
            assertThat(e.host()).isEqualTo("2001:db8::1");
            assertThat(e.port()).isEqualTo(443);
            assertThat(e.method()).isNull();
        });
    }

    @Test
    void entriesMissingWhatTheDecisionNeedsAreNotGuessed() throws Exception {
        String head = "{\"at\":\"2026-11-20T10:00:00Z\",\"kind\":\"egress\",\"action\":\"allow\","
                + "\"actor\":{\"type\":\"sandbox\",\"id\":\"sb\"},";
        assertThat(read(head + "\"target\":\"a.com:443\",\"details\":{\"reason\":\"entry-allow\"}}"))
                .isEqualTo(unreplayable(NotReplayable.MISSING_FIELDS));
        assertThat(read(head + "\"target\":\"a.com\",\"details\":{\"listener\":\"connect\"}}"))
                .isEqualTo(unreplayable(NotReplayable.MISSING_FIELDS));
        assertThat(read(head + "\"target\":\"a.com:443\",\"details\":{\"listener\":\"quic\"}}"))
                .isEqualTo(unreplayable(NotReplayable.UNKNOWN_LISTENER));
        assertThat(read("{\"kind\":\"egress\",\"action\":\"allow\",\"target\":\"a.com:443\"}"))
                .isEqualTo(new RecordedDecision.Unreplayable(null, null, NotReplayable.MISSING_FIELDS));
    }

    @Test
    void aCancelledToolCallWasTheHaltsNotThePolicys() throws Exception {
        RecordedDecision d = read("{\"at\":\"2026-11-20T10:00:00Z\",\"kind\":\"tool-call\",\"outcome\":\"cancelled\","
                + "\"actor\":{\"type\":\"user\",\"id\":\"u\"},\"target\":\"t\",\"details\":{\"connectorId\":\"c\","
                + "\"upstreamTool\":\"t\"}}");
        assertThat(d).isEqualTo(new RecordedDecision.Unreplayable(Instant.parse("2026-11-20T10:00:00Z"), "user:u",
                NotReplayable.NOT_A_POLICY_DECISION));
    }

    @Test
    void aBareArrayIsReadAndABrokenFileSaysWhere() throws Exception {
        List<RecordedDecision> out = new ArrayList<>();
        TrailStream.read(stream("[{\"kind\":\"policy\"}]"), out::add);
        assertThat(out).containsExactly(new RecordedDecision.Unreplayable(null, null, NotReplayable.UNKNOWN_KIND));
        assertThatThrownBy(() -> TrailStream.read(stream("{\"items\": [\n  {\"kind\": }\n]}"), d -> { }))
                .isInstanceOf(TrailStream.TrailFormatException.class).hasMessageContaining("line 2, column 12");
        assertThatThrownBy(() -> TrailStream.read(stream("{\"entries\": []}"), d -> { }))
                .hasMessageContaining("`items` array");
        assertThatThrownBy(() -> TrailStream.read(stream("{\"items\": [1]}"), d -> { }))
                .hasMessageContaining("each trail entry is a JSON object at line 1, column 12");
    }

    private static RecordedDecision unreplayable(NotReplayable why) {
        return new RecordedDecision.Unreplayable(Instant.parse("2026-11-20T10:00:00Z"), "sb", why);
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
