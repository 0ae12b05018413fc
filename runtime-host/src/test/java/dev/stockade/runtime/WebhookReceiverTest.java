package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.channel.SlackDestinations;
import dev.stockade.runtime.observe.Log;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** POST /agents/webhooks/<name> against the real server and SQLite: every status, templates, targets. */
class WebhookReceiverTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    TestRuntime rt;

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
        rt = new TestRuntime(home, TestRuntime.azure(provider)).start();
    }

    @AfterEach
    void stop() {
        rt.close();
        provider.close();
    }

    private void enable() throws Exception {
        assertThat(rt.patch("/agents/webhook-receiver", "{\"enabled\":true}").status()).isEqualTo(200);
    }

    private void subscribe(String json) throws Exception {
        assertThat(rt.post("/agents/webhook-subscriptions", json).status()).isEqualTo(201);
    }

    private List<Conversations.Message> webThread(String name) throws Exception {
        return new Conversations(rt.runtime.store()).messages("web:webhook:" + name);
    }

    @Test
    void receiverIsOffByDefaultAndAnswers403ForEveryName() throws Exception {
        subscribe("{\"name\":\"gh\",\"deliverOnly\":true,\"prompt\":\"x\"}");
        assertThat(rt.post("/agents/webhooks/gh", "{}").status()).isEqualTo(403);
        assertThat(rt.post("/agents/webhooks/nobody", "{}").status()).isEqualTo(403);
        enable();
        assertThat(rt.post("/agents/webhooks/gh", "{}").status()).isEqualTo(200);
        rt.patch("/agents/webhook-receiver", "{\"enabled\":false}");
        TestRuntime.Answer a = rt.post("/agents/webhooks/gh", "{}");
        assertThat(a.status()).isEqualTo(403);
        assertThat(a.json().path("type").asText()).isEqualTo("urn:stockade:runtime:receiver-disabled");
    }

    @Test
    void unknownNameIs404AndDisabledSubscriptionIs403WithoutRunning() throws Exception {
        enable();
        assertThat(rt.post("/agents/webhooks/missing", "{}").status()).isEqualTo(404);
        subscribe("{\"name\":\"off\",\"active\":false}");
        assertThat(rt.post("/agents/webhooks/off", "{}").status()).isEqualTo(403);
        assertThat(rt.get("/agents/webhook-subscriptions/off/runs").json().path("runs").size()).isZero();
        rt.patch("/agents/webhook-subscriptions/off", "{\"active\":true}");
        assertThat(rt.post("/agents/webhooks/off", "{}").status()).isEqualTo(202);
    }

    @Test
    void bodyThatIsNotAJsonObjectIs400() throws Exception {
        enable();
        subscribe("{\"name\":\"gh\"}");
        for (String body : List.of("[1,2]", "\"text\"", "42", "{not json", "")) {
            TestRuntime.Answer a = rt.post("/agents/webhooks/gh", body);
            assertThat(a.status()).as(body).isEqualTo(400);
            assertThat(a.json().path("status").asInt()).isEqualTo(400);
        }
        assertThat(provider.calls()).isEmpty();
    }

    @Test
    void eventsListIgnoresOtherTypesWith200() throws Exception {
        enable();
        subscribe("{\"name\":\"gh\",\"events\":\"push, pull_request\"}");
        TestRuntime.Answer a = rt.post("/agents/webhooks/gh", Payloads.GITHUB_PUSH, "X-GitHub-Event", "issues");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.json().path("status").asText()).isEqualTo("ignored");
        assertThat(a.json().path("event").asText()).isEqualTo("issues");
        TestRuntime.Answer b = rt.post("/agents/webhooks/gh", Payloads.GITHUB_PULL_REQUEST,
                "X-GitHub-Event", "pull_request");
        assertThat(b.status()).isEqualTo(202);
        assertThat(b.json().path("status").asText()).isEqualTo("accepted");
        assertThat(b.json().path("event").asText()).isEqualTo("pull_request");
        assertThat(b.json().path("runId").asText()).isNotBlank();
    }

    @Test
    void deliverOnlyPostsTheRenderedTemplateWithoutTheModel() throws Exception {
        enable();
        subscribe("{\"name\":\"Deploy Alerts\",\"deliverOnly\":true,\"deliverTo\":\"chat\",\"prompt\":"
                + "\"{repository.full_name}: {head_commit.message} by {pusher.name} ({commits.0.modified.0}) {no.such}\"}");
        TestRuntime.Answer a = rt.post("/agents/webhooks/deploy-alerts", Payloads.GITHUB_PUSH, "X-GitHub-Event", "push");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.json().path("status").asText()).isEqualTo("delivered");
        assertThat(a.json().path("event").asText()).isEqualTo("push");
        assertThat(webThread("deploy-alerts")).extracting(Conversations.Message::content)
                .containsExactly("acme/shop: fix checkout rounding by ada (src/cart.js) {no.such}");
        assertThat(provider.calls()).isEmpty();
    }

    @Test
    void deliverOnlyWithAnEmptyPromptPostsTheRawPayload() throws Exception {
        enable();
        subscribe("{\"name\":\"raw\",\"deliverOnly\":true,\"deliverTo\":\"chat\"}");
        assertThat(rt.post("/agents/webhooks/raw", Payloads.INCIDENT).status()).isEqualTo(200);
        assertThat(webThread("raw").get(0).content()).startsWith("{\n  \"event\" : {").contains("\"Checkout down\"");
    }

    @Test
    void acceptedRunReasonsOverTheRenderedPromptAndDeliversWithThePrefix() throws Exception {
        enable();
        provider.enqueue(ProviderDouble.Reply.text("Merge request 7 looks fine."));
        subscribe("{\"name\":\"gl\",\"deliverTo\":\"chat\",\"prompt\":\"Review MR {object_attributes.iid}: "
                + "{object_attributes.title}\"}");
        TestRuntime.Answer a = rt.post("/agents/webhooks/gl", Payloads.GITLAB_MERGE_REQUEST,
                "X-GitLab-Event", "Merge Request Hook");
        assertThat(a.status()).isEqualTo(202);
        assertThat(a.json().path("event").asText()).isEqualTo("Merge Request Hook");
        TestRuntime.await(() -> runStatus("gl", 0).equals("done"));
        assertThat(webThread("gl")).extracting(Conversations.Message::content)
                .containsExactly("**Webhook: gl**\n\nMerge request 7 looks fine.");
        String prompt = lastUserText(provider.chats().get(0));
        assertThat(prompt).isEqualTo("Review MR 7: Refactor cart");
    }

    @Test
    void emptyPromptSendsTheRawPayloadWithAnEventAndRouteLeadIn() throws Exception {
        enable();
        subscribe("{\"name\":\"alerts\",\"deliverTo\":\"chat\"}");
        assertThat(rt.post("/agents/webhooks/alerts", Payloads.ALERTMANAGER).json().path("event").asText())
                .isEqualTo("unknown");
        TestRuntime.await(() -> runStatus("alerts", 0).equals("done"));
        String prompt = lastUserText(provider.chats().get(0));
        assertThat(prompt).startsWith("A webhook event arrived.\nRoute: POST /agents/webhooks/alerts\nEvent: unknown");
        assertThat(prompt).contains("\"commonLabels\" : {").contains("\"severity\" : \"critical\"");
    }

    @Test
    void aFailedRunDeliversAShortFailureNotice() throws Exception {
        enable();
        provider.fallback(c -> ProviderDouble.Reply.status(400));
        subscribe("{\"name\":\"inc\",\"deliverTo\":\"chat\"}");
        rt.post("/agents/webhooks/inc", Payloads.INCIDENT);
        TestRuntime.await(() -> runStatus("inc", 0).equals("failed"));
        List<Conversations.Message> msgs = webThread("inc");
        assertThat(msgs).hasSize(1);
        assertThat(msgs.get(0).content()).startsWith("**Webhook: inc**\n\nThe run for event `unknown` failed (chat: "
                + "the provider answered HTTP 400)");
        assertThat(msgs.get(0).content()).doesNotContain("sk-azure");
    }

    @Test
    void slackTargetFallsBackToWebChatWithAWarningWhenNothingIsLinked() throws Exception {
        enable();
        subscribe("{\"name\":\"s\",\"deliverOnly\":true,\"deliverTo\":\"slack\",\"prompt\":\"hello\"}");
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        Log.to(new PrintStream(logs, true, StandardCharsets.UTF_8));
        try {
            assertThat(rt.post("/agents/webhooks/s", "{}").status()).isEqualTo(200);
        } finally {
            Log.to(System.err);
        }
        assertThat(webThread("s")).extracting(Conversations.Message::content).containsExactly("hello");
        assertThat(logs.toString(StandardCharsets.UTF_8)).contains("\"event\":\"delivery.slack_fallback\"")
                .contains("\"level\":\"warn\"");
    }

    @Test
    void slackTargetWithALinkedChannelStoresInItsHiddenThreadOnly() throws Exception {
        enable();
        SlackDestinations slack = new SlackDestinations(rt.runtime.store());
        slack.link("channel", "C0OLDEST", false, null);
        String main = slack.link("channel", "C0MAIN", true, null);
        subscribe("{\"name\":\"s\",\"deliverOnly\":true,\"deliverTo\":\"slack\",\"prompt\":\"to slack\"}");
        subscribe("{\"name\":\"all\",\"deliverOnly\":true,\"prompt\":\"to everyone\"}");
        rt.post("/agents/webhooks/s", "{}");
        rt.post("/agents/webhooks/all", "{}");
        Conversations c = new Conversations(rt.runtime.store());
        // The all-channels copy on Slack points at its web copy; without AGENT_PUBLIC_URL it says what to open.
        assertThat(c.messages("slack:" + main)).extracting(Conversations.Message::content)
                .containsExactly("to slack", "to everyone\n\nIn the agent's web chat, open the thread \"Webhook: all\".");
        assertThat(webThread("s")).isEmpty();
        assertThat(webThread("all")).extracting(Conversations.Message::content).containsExactly("to everyone");
        assertThat(rt.get("/agents/threads").json().path("threads").findValuesAsText("id"))
                .contains("web:webhook:all").doesNotContain("slack:" + main);
    }

    @Test
    void namesAreSlugsWithSpacesAsHyphens() throws Exception {
        TestRuntime.Answer ok = rt.post("/agents/webhook-subscriptions", "{\"name\":\"  Build Status \"}");
        assertThat(ok.json().path("name").asText()).isEqualTo("build-status");
        assertThat(ok.json().path("path").asText()).isEqualTo("/agents/webhooks/build-status");
        for (String bad : List.of("-lead", "_x", "a/b", "é", "", "a.b")) {
            assertThat(rt.post("/agents/webhook-subscriptions", "{\"name\":\"" + bad + "\"}").status()).as(bad)
                    .isEqualTo(400);
        }
        assertThat(rt.post("/agents/webhook-subscriptions", "{\"name\":\"build status\"}").status()).isEqualTo(409);
        assertThat(rt.post("/agents/webhook-subscriptions", "{\"name\":\"x\",\"deliverTo\":\"email\"}").status())
                .isEqualTo(400);
    }

    private String runStatus(String name, int index) {
        try {
            var runs = rt.get("/agents/webhook-subscriptions/" + name + "/runs").json().path("runs");
            return runs.size() > index ? runs.get(index).path("status").asText() : "";
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String lastUserText(ProviderDouble.Call call) {
        var msgs = call.body().path("messages");
        var last = msgs.get(msgs.size() - 1).path("content");
        return last.get(last.size() - 1).path("text").asText();
    }
}
