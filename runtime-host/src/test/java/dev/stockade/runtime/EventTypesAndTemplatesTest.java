package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.channel.DeliverTo;
import dev.stockade.runtime.webhook.EventTypes;
import dev.stockade.runtime.webhook.PromptTemplate;
import dev.stockade.runtime.webhook.Subscription;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Event type resolution order and template rendering over real payload shapes. */
class EventTypesAndTemplatesTest {
    private static JsonNode json(String s) throws Exception {
        return ProviderDouble.JSON.readTree(s);
    }

    private static String type(Map<String, String> headers, String payload) throws Exception {
        return EventTypes.resolve(h -> headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(h))
                .map(Map.Entry::getValue).findFirst().orElse(null), json(payload));
    }

    @Test
    void resolutionFollowsTheSpecOrder() throws Exception {
        assertThat(type(Map.of("X-GitHub-Event", "push"), Payloads.GITHUB_PUSH)).isEqualTo("push");
        assertThat(type(Map.of("x-github-event", "pull_request"), Payloads.GITHUB_PULL_REQUEST)).isEqualTo("pull_request");
        // GitLab's body also has event_type; the header comes first.
        assertThat(type(Map.of("X-Gitlab-Event", "Merge Request Hook"), Payloads.GITLAB_MERGE_REQUEST))
                .isEqualTo("Merge Request Hook");
        assertThat(type(Map.of(), Payloads.GITLAB_MERGE_REQUEST)).isEqualTo("merge_request");
        assertThat(type(Map.of("X-GitHub-Event", "push", "X-GitLab-Event", "Push Hook"), "{}")).isEqualTo("push");
        assertThat(type(Map.of(), Payloads.ALERTMANAGER)).isEqualTo("unknown");
        // An incident tool nests event_type under event: not top-level, so unknown.
        assertThat(type(Map.of(), Payloads.INCIDENT)).isEqualTo("unknown");
        assertThat(type(Map.of(), "{\"event_type\":\"deploy.finished\"}")).isEqualTo("deploy.finished");
        assertThat(type(Map.of(), "{\"event_type\":{\"x\":1}}")).isEqualTo("unknown");
        assertThat(type(Map.of("X-GitHub-Event", "  "), "{\"event_type\":\"\"}")).isEqualTo("unknown");
    }

    @Test
    void eventsAllowlistMatchesIgnoringCase() {
        Subscription s = new Subscription("x", "", Subscription.parseEvents(" push ,, Merge Request Hook"),
                dev.stockade.runtime.channel.DeliverTo.ALL, false, "", true);
        assertThat(s.events()).containsExactly("push", "Merge Request Hook");
        assertThat(s.accepts("PUSH")).isTrue();
        assertThat(s.accepts("merge request hook")).isTrue();
        assertThat(s.accepts("issues")).isFalse();
        assertThat(new Subscription("y", "", List.of(), null, false, "", true).accepts("anything")).isTrue();
    }

    @Test
    void templatesResolveDotPathsAndLeaveUnresolvableTokens() throws Exception {
        JsonNode alert = json(Payloads.ALERTMANAGER);
        assertThat(PromptTemplate.render("{status}: {commonLabels.alertname} on {commonLabels.service} "
                + "({alerts.0.labels.instance}, {alerts.1.labels.instance}) {commonLabels} {nope} {} {a..b} {",
                alert)).isEqualTo("firing: HighLatency on checkout (checkout-1, {alerts.1.labels.instance}) "
                        + "{\"alertname\":\"HighLatency\",\"severity\":\"critical\",\"service\":\"checkout\"} {nope} {} "
                        + "{a..b} {");
        JsonNode incident = json(Payloads.INCIDENT);
        assertThat(PromptTemplate.render("{event.event_type}: {event.data.title} [{event.data.urgency}]", incident))
                .isEqualTo("incident.triggered: Checkout down [high]");
        JsonNode pr = json(Payloads.GITHUB_PULL_REQUEST);
        assertThat(PromptTemplate.render("PR #{number} {pull_request.title} by {pull_request.user.login}, "
                + "merged={pull_request.merged}", pr)).isEqualTo("PR #42 Add gift cards by grace, merged=false");
    }

    @Test
    void rawIsIndentedJsonTruncatedNear4000Characters() throws Exception {
        JsonNode small = json(Payloads.GITHUB_PUSH);
        String raw = PromptTemplate.render("Payload:\n{__raw__}", small);
        assertThat(raw).startsWith("Payload:\n{\n  \"ref\" : \"refs/heads/main\"");
        StringBuilder big = new StringBuilder("{\"items\":[");
        for (int i = 0; i < 2000; i++) {
            big.append(i == 0 ? "" : ",").append("{\"i\":").append(i).append("}");
        }
        String cut = PromptTemplate.raw(json(big.append("]}").toString()));
        assertThat(cut.length()).isBetween(4000, 4100);
        assertThat(cut).contains("… (truncated,");
    }

    @Test
    void templateWorkIsLinearAndTokensInValuesAreNotReexpanded() throws Exception {
        JsonNode p = json("{\"a\":\"{b}\",\"b\":\"secret\"}");
        assertThat(PromptTemplate.render("{a}", p)).isEqualTo("{b}");
        String many = "{".repeat(50_000);
        assertThat(PromptTemplate.render(many, p)).isEqualTo(many);
    }
}
