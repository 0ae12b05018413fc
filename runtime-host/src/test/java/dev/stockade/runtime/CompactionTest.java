package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Conversations;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction after a turn at the threshold, its boundaries, folding, /compact and its exemptions. */
class CompactionTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    TestRuntime rt;

    private void start(String... kv) throws Exception {
        provider = new ProviderDouble();
        Map<String, String> env = new HashMap<>(TestRuntime.azure(provider));
        env.put("CONTEXT_WINDOW_TOKENS", "1000");
        env.put("COMPACTION_TAIL_MESSAGES", "2");
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        rt = new TestRuntime(home, env).start();
    }

    @AfterEach
    void stop() {
        rt.close();
        provider.close();
    }

    private JsonNode say(String thread, String text) throws Exception {
        return rt.post("/agents/threads/" + thread + "/messages",
                ProviderDouble.JSON.createObjectNode().put("text", text).toString()).json();
    }

    private String thread() throws Exception {
        return rt.post("/agents/threads", "{}").json().path("id").asText();
    }

    @Test
    void compactsAtTheThresholdNotBelowAndKeepsTheTailVerbatim() throws Exception {
        start();
        String t = thread();
        provider.enqueue(ProviderDouble.Reply.text("one").withInputTokens(100));
        say(t, "first");
        provider.enqueue(ProviderDouble.Reply.text("two").withInputTokens(899));
        JsonNode below = say(t, "second");
        assertThat(below.path("compacted").asBoolean()).isFalse();
        assertThat(below.path("contextPercent").asInt()).isEqualTo(89);
        provider.enqueue(ProviderDouble.Reply.text("three").withInputTokens(900), ProviderDouble.Reply.text("SUMMARY-1"));
        assertThat(say(t, "third").path("compacted").asBoolean()).isTrue();
        Conversations c = new Conversations(rt.runtime.store());
        assertThat(c.thread(t).summary()).isEqualTo("SUMMARY-1");
        assertThat(c.live(t)).extracting(Conversations.Message::content).containsExactly("third", "three");
        assertThat(c.messages(t)).hasSize(6); // nothing is deleted, only folded
        String summaryRequest = WebhookReceiverTest.lastUserText(provider.chats().get(3));
        assertThat(summaryRequest).contains("user: first").contains("assistant: two").doesNotContain("third");

        provider.enqueue(ProviderDouble.Reply.text("four").withInputTokens(950), ProviderDouble.Reply.text("SUMMARY-2"));
        say(t, "fourth");
        JsonNode sent = provider.chats().get(4).body().path("messages");
        assertThat(sent.get(0).path("content").get(0).path("text").asText())
                .isEqualTo("Summary of the earlier conversation:\nSUMMARY-1");
        assertThat(WebhookReceiverTest.lastUserText(provider.chats().get(5))).startsWith("Previous summary:\nSUMMARY-1");
        assertThat(c.thread(t).summary()).isEqualTo("SUMMARY-2");
    }

    @Test
    void zeroDisablesAndUnknownWindowsNeverCompact() throws Exception {
        start("COMPACTION_THRESHOLD_PERCENT", "0");
        String t = thread();
        provider.enqueue(ProviderDouble.Reply.text("a").withInputTokens(5000), ProviderDouble.Reply.text("b")
                .withInputTokens(5000));
        assertThat(say(t, "x").path("compacted").asBoolean()).isFalse();
        assertThat(say(t, "y").path("compacted").asBoolean()).isFalse();
        assertThat(provider.chats()).hasSize(2);
    }

    @Test
    void unknownModelHidesTheIndicatorAndSkipsCompaction() throws Exception {
        start("CONTEXT_WINDOW_TOKENS", "", "AZURE_MODEL_ID", "some-private-deployment");
        String t = thread();
        provider.enqueue(ProviderDouble.Reply.text("a").withInputTokens(10_000_000));
        JsonNode r = say(t, "x");
        assertThat(r.path("contextPercent").isNull()).isTrue();
        assertThat(r.path("compacted").asBoolean()).isFalse();
    }

    @Test
    void slashCompactRunsOnDemandAndNeverSplitsAToolCallFromItsResult() throws Exception {
        start("COMPACTION_THRESHOLD_PERCENT", "100");
        String t = thread();
        provider.enqueue(ProviderDouble.Reply.text("hello"),
                ProviderDouble.Reply.tool(null, "memory_search", "{\"query\":\"x\"}"), ProviderDouble.Reply.text("done"));
        say(t, "hi");
        say(t, "search");
        // live: hi, hello, search, tool_use, tool_result, done. A tail of 2 would start at tool_result.
        provider.enqueue(ProviderDouble.Reply.text("S"));
        assertThat(say(t, "/compact").path("compacted").asBoolean()).isTrue();
        List<Conversations.Message> live = new Conversations(rt.runtime.store()).live(t);
        assertThat(live).extracting(Conversations.Message::role).containsExactly("tool_use", "tool_result", "assistant");
    }

    @Test
    void slackThreadsAreExempt() throws Exception {
        start();
        Conversations c = new Conversations(rt.runtime.store());
        c.createWithId("slack:x", "slack", "Slack", true);
        provider.enqueue(ProviderDouble.Reply.text("a").withInputTokens(999));
        assertThat(say("slack:x", "hi").path("compacted").asBoolean()).isFalse();
    }
}
