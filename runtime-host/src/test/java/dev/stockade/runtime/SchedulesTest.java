package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.agent.Conversations;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Heartbeat with the DELIVER/SUPPRESS gate and cron tasks, each with its own model. */
class SchedulesTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    TestRuntime rt;

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
        Map<String, String> env = new HashMap<>(TestRuntime.azure(provider));
        env.put("AZURE_CLASSIFICATION_MODEL_ID", "gate-model");
        rt = new TestRuntime(home, env);
        rt.timers = false;
        rt.start();
    }

    @AfterEach
    void stop() {
        rt.close();
        provider.close();
    }

    private List<String> web(String source) throws Exception {
        return new Conversations(rt.runtime.store()).messages("web:" + source).stream()
                .map(Conversations.Message::content).toList();
    }

    @Test
    void heartbeatDeliversOnlyWhatTheGateLetsThroughWithItsOwnModel() throws Exception {
        rt.send("PUT", "/agents/documents/heartbeat-config", "{\"content\":\"Check the build.\"}");
        rt.post("/agents/threads", "{}");
        rt.patch("/agents/verbose", "{\"verbose\":false}");
        rt.post("/agents/threads/" + rt.post("/agents/threads", "{}").json().path("id").asText() + "/messages",
                "{\"text\":\"/heartbeat-model claude-haiku-4-5\"}");
        new dev.stockade.runtime.store.AgentStore(rt.runtime.store()).setHeartbeatInterval(30);
        provider.enqueue(ProviderDouble.Reply.text("Build is red."), ProviderDouble.Reply.text("DELIVER"));
        Instant t0 = Instant.parse("2026-11-23T10:00:00Z");
        rt.runtime.schedules().tick(t0);
        assertThat(web("heartbeat")).containsExactly("Build is red.");
        assertThat(provider.chats().get(0).body().path("model").asText()).isEqualTo("claude-haiku-4-5");
        assertThat(provider.chats().get(0).body().path("messages").toString()).contains("Check the build.");
        assertThat(provider.chats().get(1).body().path("model").asText()).isEqualTo("gate-model");
        // Not due again before the interval has passed.
        rt.runtime.schedules().tick(t0.plusSeconds(60));
        assertThat(provider.chats()).hasSize(2);
        provider.enqueue(ProviderDouble.Reply.text("All quiet."), ProviderDouble.Reply.text("SUPPRESS"));
        rt.runtime.schedules().tick(t0.plusSeconds(30 * 60));
        assertThat(provider.chats()).hasSize(4);
        assertThat(web("heartbeat")).containsExactly("Build is red.");
    }

    @Test
    void cronTasksRunWhenTheirExpressionFiresWithTheirModelFallingBackToMain() throws Exception {
        assertThat(rt.post("/agents/cron-tasks", "{\"expression\":\"every day\",\"prompt\":\"x\"}").status())
                .isEqualTo(400);
        String id = rt.post("/agents/cron-tasks", "{\"expression\":\"0 9 * * 1-5\",\"prompt\":\"Post the standup\"}")
                .json().path("id").asText();
        rt.runtime.store().update("UPDATE cron_tasks SET created_at = ? WHERE id = ?", "2026-11-23T08:00:00Z", id);
        rt.runtime.schedules().tick(Instant.parse("2026-11-23T08:59:00Z"));
        assertThat(provider.chats()).isEmpty();
        provider.enqueue(ProviderDouble.Reply.text("Standup: all green."));
        rt.runtime.schedules().tick(Instant.parse("2026-11-23T09:00:30Z")); // a Monday
        assertThat(web("cron:" + id)).containsExactly("Standup: all green.");
        assertThat(provider.chats().get(0).body().path("model").asText()).isEqualTo("claude-opus-5");
        rt.runtime.schedules().tick(Instant.parse("2026-11-23T09:05:00Z"));
        assertThat(provider.chats()).hasSize(1);
        new dev.stockade.runtime.store.AgentStore(rt.runtime.store()).setModel("cron", "claude-haiku-4-5");
        rt.runtime.schedules().tick(Instant.parse("2026-11-24T09:00:10Z"));
        assertThat(provider.chats().get(1).body().path("model").asText()).isEqualTo("claude-haiku-4-5");
    }
}
