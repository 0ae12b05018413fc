package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.observe.Log;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhook deliveries to Slack through the adapter's sender, against the Slack double: the destination chosen by mode
 * (personal: the direct message; team: the flagged main channel, else the oldest channel), each delivery stored in the
 * destination's own thread kept out of the web recents list (the resume picker reads the same list), and the web
 * fallback with its warning when nothing is linked.
 */
class SlackDeliveryTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    SlackDouble slack;
    TestRuntime rt;
    final ByteArrayOutputStream logs = new ByteArrayOutputStream();

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
        slack = new SlackDouble();
        Log.to(new PrintStream(logs, true, StandardCharsets.UTF_8));
        Map<String, String> env = new HashMap<>(TestRuntime.azure(provider));
        env.put("SLACK_API_URL", slack.apiUrl());
        env.put("SLACK_BOT_TOKEN", SlackDouble.BOT_TOKEN);
        env.put("SLACK_APP_TOKEN", SlackDouble.APP_TOKEN);
        rt = new TestRuntime(home, env).start();
        assertThat(rt.patch("/agents/webhook-receiver", "{\"enabled\":true}").status()).isEqualTo(200);
    }

    @AfterEach
    void stop() throws Exception {
        rt.close();
        slack.close();
        provider.close();
        Log.to(System.err);
        assertThat(logs.toString(StandardCharsets.UTF_8)).doesNotContain(SlackDouble.BOT_TOKEN)
                .doesNotContain(SlackDouble.APP_TOKEN);
    }

    private String link(String kind, String slackId) throws Exception {
        return rt.post("/agents/slack-destinations", "{\"kind\":\"" + kind + "\",\"slackId\":\"" + slackId + "\"}")
                .json().path("id").asText();
    }

    private void subscribe(String name, String deliverTo, String prompt, boolean deliverOnly) throws Exception {
        assertThat(rt.post("/agents/webhook-subscriptions", SlackDouble.JSON.createObjectNode().put("name", name)
                .put("deliverTo", deliverTo).put("prompt", prompt).put("deliverOnly", deliverOnly).toString())
                .status()).isEqualTo(201);
    }

    /** The web recents list, which the terminal UI's resume picker also reads. */
    private List<String> recents() {
        List<String> ids = new ArrayList<>();
        try {
            for (JsonNode t : rt.get("/agents/threads").json().path("threads")) {
                ids.add(t.path("id").asText());
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return ids;
    }

    @Test
    void aSlackDeliveryIsPostedToTheMainChannelAndStoredInItsHiddenThread() throws Exception {
        String channel = link("channel", "C0MAIN");
        subscribe("ci", "slack", "build {status}", true);
        assertThat(rt.post("/agents/webhooks/ci", "{\"status\":\"passed\"}").status()).isEqualTo(200);
        TestRuntime.await(() -> !slack.posts().isEmpty());
        assertThat(slack.posts()).containsExactly(new SlackDouble.Post("C0MAIN", null, "build passed"));
        Conversations c = new Conversations(rt.runtime.store());
        assertThat(c.messages("slack:" + channel)).extracting(Conversations.Message::content)
                .containsExactly("build passed");
        assertThat(c.thread("slack:" + channel).hidden()).isTrue();
        assertThat(recents()).doesNotContain("slack:" + channel, "web:webhook:ci");
        assertThat(c.thread("web:webhook:ci")).isNull(); // Slack only: no web copy
    }

    @Test
    void anAgentRunDeliveredToAllChannelsReachesSlackAndTheWebChat() throws Exception {
        String channel = link("channel", "C0MAIN");
        subscribe("ci", "all", "summarise {status}", false);
        provider.enqueue(ProviderDouble.Reply.text("Build 42 passed."));
        assertThat(rt.post("/agents/webhooks/ci", "{\"status\":\"passed\"}").status()).isEqualTo(202);
        TestRuntime.await(() -> !slack.posts().isEmpty());
        SlackDouble.Post post = slack.posts().get(0);
        assertThat(post.channel()).isEqualTo("C0MAIN");
        assertThat(post.text()).startsWith("**Webhook: ci**\n\nBuild 42 passed.\n\n");
        TestRuntime.await(() -> recents().contains("web:webhook:ci"));
        Conversations c = new Conversations(rt.runtime.store());
        assertThat(c.messages("web:webhook:ci")).extracting(Conversations.Message::content)
                .containsExactly("**Webhook: ci**\n\nBuild 42 passed.");
        assertThat(recents()).doesNotContain("slack:" + channel);
    }

    @Test
    void teamModeUsesTheFlaggedMainChannelElseTheOldestAndPersonalModeTheDirectMessage() throws Exception {
        subscribe("ping", "slack", "ping", true);
        link("dm", "U0ALICE");
        rt.post("/agents/webhooks/ping", "{}");
        TestRuntime.await(() -> slack.posts().size() == 1);
        link("channel", "C0FIRST");
        String second = link("channel", "C0SECOND");
        rt.post("/agents/webhooks/ping", "{}");
        TestRuntime.await(() -> slack.posts().size() == 2);
        assertThat(rt.patch("/agents/slack-destinations/" + second, "{\"main\":true}").status()).isEqualTo(200);
        rt.post("/agents/webhooks/ping", "{}");
        TestRuntime.await(() -> slack.posts().size() == 3);
        assertThat(slack.posts()).extracting(SlackDouble.Post::channel)
                .containsExactly("U0ALICE", "C0FIRST", "C0SECOND");
    }

    @Test
    void withNoDestinationLinkedASlackDeliveryFallsBackToTheWebWithAWarning() throws Exception {
        subscribe("ci", "slack", "build failed", true);
        assertThat(rt.post("/agents/webhooks/ci", "{}").status()).isEqualTo(200);
        Conversations c = new Conversations(rt.runtime.store());
        TestRuntime.await(() -> recents().contains("web:webhook:ci"));
        assertThat(c.messages("web:webhook:ci")).extracting(Conversations.Message::content)
                .containsExactly("build failed");
        assertThat(slack.posts()).isEmpty();
        assertThat(logs.toString(StandardCharsets.UTF_8)).contains("\"event\":\"delivery.slack_fallback\"")
                .contains("no Slack destination linked");
    }

    @Test
    void aPostSlackRefusesIsLoggedAndTheDeliveryStaysStored() throws Exception {
        String channel = link("channel", "C0MAIN");
        subscribe("ci", "slack", "done", true);
        slack.close(); // Slack out of reach after start-up
        assertThat(rt.post("/agents/webhooks/ci", "{}").status()).isEqualTo(200);
        TestRuntime.await(() -> logs.toString(StandardCharsets.UTF_8).contains("delivery.slack_failed"));
        assertThat(new Conversations(rt.runtime.store()).messages("slack:" + channel)).hasSize(1);
        slack = new SlackDouble();
    }
}
