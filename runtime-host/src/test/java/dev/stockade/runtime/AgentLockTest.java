package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.DocumentKind;
import dev.stockade.runtime.agent.Documents;
import dev.stockade.runtime.agent.Memory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The agent loop with tools over web chat, verbose delivery, and the lock across every tool. */
class AgentLockTest extends OneThreadTest {
    private JsonNode say(String text) throws Exception {
        TestRuntime.Answer a = rt.post("/agents/threads/" + thread + "/messages",
                ProviderDouble.JSON.createObjectNode().put("text", text).toString());
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return a.json();
    }

    private List<String> offeredTools(ProviderDouble.Call call) {
        List<String> names = new ArrayList<>();
        call.body().path("tools").forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    /** The tool result the agent stored for the last call of {@code tool}. */
    private JsonNode toolResult() throws Exception {
        List<Conversations.Message> msgs = new Conversations(rt.runtime.store()).messages(thread);
        for (int i = msgs.size() - 1; i >= 0; i--) {
            if (msgs.get(i).role().equals("tool_result")) {
                return ProviderDouble.JSON.readTree(msgs.get(i).content());
            }
        }
        throw new AssertionError("no tool result");
    }

    @Test
    void aTurnRunsToolsUntilTheModelAnswersAndHidesIntermediateStepsUnlessVerbose() throws Exception {
        provider.enqueue(ProviderDouble.Reply.tool("Let me note that.", "memory_write",
                "{\"content\":\"Ada prefers tea\"}"), ProviderDouble.Reply.text("Noted: tea."));
        JsonNode quiet = say("Remember: Ada prefers tea");
        assertThat(quiet.path("delivered").toString()).isEqualTo("[\"Noted: tea.\"]");
        List<Conversations.Message> msgs = new Conversations(rt.runtime.store()).messages(thread);
        assertThat(msgs).extracting(Conversations.Message::role)
                .containsExactly("user", "assistant", "tool_use", "tool_result", "assistant");
        assertThat(msgs.get(1).internal()).isTrue();
        assertThat(msgs.get(4).internal()).isFalse();
        assertThat(new Memory(rt.runtime.store(), null).search("tea", 5)).extracting(Memory.Entry::content)
                .containsExactly("Ada prefers tea");
        // The second call carried the tool result back in the Messages wire format.
        JsonNode second = provider.chats().get(1).body().path("messages");
        assertThat(second.get(second.size() - 1).path("content").get(0).path("type").asText()).isEqualTo("tool_result");

        assertThat(rt.patch("/agents/verbose", "{\"verbose\":true}").json().path("verbose").asBoolean()).isTrue();
        provider.enqueue(ProviderDouble.Reply.tool("Checking memory.", "memory_search", "{\"query\":\"tea\"}"),
                ProviderDouble.Reply.text("Ada prefers tea."));
        assertThat(say("What does Ada drink?").path("delivered").toString())
                .isEqualTo("[\"Checking memory.\",\"Ada prefers tea.\"]");
        assertThat(toolResult().path("output").asText()).contains("Ada prefers tea");
    }

    @Test
    void settingsEndpointsRefuseNonBooleans() throws Exception {
        assertThat(rt.patch("/agents/verbose", "{\"verbose\":\"yes\"}").status()).isEqualTo(400);
        assertThat(rt.patch("/agents/locked-in", "{}").status()).isEqualTo(400);
        assertThat(rt.patch("/agents/locked-in", "[true]").status()).isEqualTo(400);
        assertThat(rt.get("/agents/profile").json().path("lockedIn").asBoolean()).isFalse();
    }

    @Test
    void lockWithholdsWritingToolsAndRefusesWritesWithWhatWouldHaveChanged() throws Exception {
        Documents docs = new Documents(rt.runtime.store());
        docs.write(DocumentKind.SOUL, "curious");
        Memory memory = new Memory(rt.runtime.store(), null);
        long entry = memory.write("keep me");
        assertThat(rt.patch("/agents/locked-in", "{\"lockedIn\":true}").json().path("lockedIn").asBoolean()).isTrue();

        provider.enqueue(ProviderDouble.Reply.tool(null, "write_document", "{\"kind\":\"soul\",\"content\":\"grumpy\"}"),
                ProviderDouble.Reply.text("I cannot while locked."));
        say("Change your soul to grumpy");
        List<String> offered = offeredTools(provider.chats().get(0));
        assertThat(offered).contains("read_document", "memory_search", "update_settings", "rename_self", "shell")
                .doesNotContain("write_document", "memory_write", "memory_delete");
        assertThat(toolResult().path("error").asBoolean()).isTrue();
        assertThat(toolResult().path("output").asText()).startsWith("Refused: this would have replaced the Soul "
                + "document with 6 characters of new text.").contains("PATCH /agents/locked-in");
        assertThat(docs.read(DocumentKind.SOUL)).isEqualTo("curious");

        for (String[] call : new String[][] {{"memory_write", "{\"content\":\"new fact\"}", "stored a memory entry: \"new fact\""},
                {"memory_delete", "{\"id\":" + entry + "}", "deleted memory entry " + entry}}) {
            provider.enqueue(ProviderDouble.Reply.tool(null, call[0], call[1]), ProviderDouble.Reply.text("ok"));
            say("do it");
            assertThat(toolResult().path("output").asText()).startsWith("Refused: this would have " + call[2]);
        }
        assertThat(memory.count()).isEqualTo(1);

        // Editable while locked: verbose, heartbeat interval, timezone, name; memory_search and the shell stay.
        provider.enqueue(ProviderDouble.Reply.tool(null, "update_settings",
                "{\"verbose\":true,\"heartbeatIntervalMinutes\":30,\"timezone\":\"Europe/Berlin\"}"),
                ProviderDouble.Reply.tool(null, "rename_self", "{\"name\":\"Otto\"}"),
                ProviderDouble.Reply.tool(null, "memory_search", "{\"query\":\"keep\"}"),
                ProviderDouble.Reply.tool(null, "shell", "{\"command\":\"echo locked-but-working > proof.txt; cat proof.txt\"}"),
                ProviderDouble.Reply.text("done"));
        say("adjust");
        JsonNode p = rt.get("/agents/profile").json();
        assertThat(p.path("verbose").asBoolean()).isTrue();
        assertThat(p.path("heartbeatIntervalMinutes").asInt()).isEqualTo(30);
        assertThat(p.path("timezone").asText()).isEqualTo("Europe/Berlin");
        assertThat(p.path("name").asText()).isEqualTo("Otto");
        assertThat(Files.readString(home.resolve("workspace/proof.txt")).strip()).isEqualTo("locked-but-working");

        // The agent cannot unlock itself.
        provider.enqueue(ProviderDouble.Reply.tool(null, "update_settings", "{\"lockedIn\":false}"),
                ProviderDouble.Reply.text("I can't."));
        say("unlock yourself");
        assertThat(toolResult().path("output").asText()).contains("cannot change the lock");
        assertThat(rt.get("/agents/profile").json().path("lockedIn").asBoolean()).isTrue();
    }

    @Test
    void theAgentGuideIsReadOnlyInBothModes() throws Exception {
        provider.enqueue(ProviderDouble.Reply.tool(null, "write_document", "{\"kind\":\"agent-guide\",\"content\":\"x\"}"),
                ProviderDouble.Reply.text("no"));
        say("rewrite your guide");
        assertThat(toolResult().path("output").asText()).isEqualTo("the Agent Guide is read-only");
        assertThat(rt.send("PUT", "/agents/documents/agent-guide", "{\"content\":\"x\"}").status()).isEqualTo(409);
        assertThat(rt.get("/agents/documents/agent-guide").json().path("content").asText()).startsWith("# Agent Guide");
    }

    @Test
    void onboardingPausesWhileLockedAndRunsAfterUnlock() throws Exception {
        rt.send("PUT", "/agents/documents/bootstrap", "{\"content\":\"Ask the user for their name.\"}");
        rt.patch("/agents/locked-in", "{\"lockedIn\":true}");
        say("hello");
        assertThat(provider.chats().get(0).body().path("system").asText()).doesNotContain("Ask the user for their name")
                .contains("You are locked in");
        assertThat(new Documents(rt.runtime.store()).read(DocumentKind.BOOTSTRAP)).isEqualTo("Ask the user for their name.");
        rt.patch("/agents/locked-in", "{\"lockedIn\":false}");
        TestRuntime.await(() -> provider.chats().size() == 2);
        assertThat(provider.chats().get(1).body().path("system").asText()).contains("Ask the user for their name");
        assertThat(WebhookReceiverTest.lastUserText(provider.chats().get(1))).contains("Continue onboarding");
    }

    @Test
    void importIsNotGatedByTheLockAndIsAppliedAtTheNextStart() throws Exception {
        rt.patch("/agents/locked-in", "{\"lockedIn\":true}");
        Path other = home.resolve("other");
        try (TestRuntime second = new TestRuntime(other, java.util.Map.of("AGENT_NAME", "Imported")).start()) {
            second.runtime.store();
        }
        byte[] db = Files.readAllBytes(other.resolve("data/agent.db"));
        var res = TestRuntime.HTTP.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(rt.url("/agents/import")))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(db)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).isEqualTo(202);
        assertThat(rt.post("/agents/import", "not a database").status()).isEqualTo(400);
        rt.restart();
        assertThat(rt.get("/agents/profile").json().path("name").asText()).isEqualTo("Imported");
    }

    @Test
    void slashCommandsSetModelsAndCompact() throws Exception {
        assertThat(say("/model claude-sonnet-4-5").path("modelId").asText()).isEqualTo("claude-sonnet-4-5");
        assertThat(say("/heartbeat-model claude-haiku-4-5").path("heartbeatModelId").asText()).isEqualTo("claude-haiku-4-5");
        assertThat(say("/cron-model").path("cronModelId").isNull()).isTrue();
        say("hi");
        assertThat(provider.chats().get(0).body().path("model").asText()).isEqualTo("claude-sonnet-4-5");
        assertThat(say("/compact").path("compacted").asBoolean()).isFalse();
        assertThat(rt.post("/agents/threads/" + thread + "/messages", "{\"text\":\"/nope\"}").status()).isEqualTo(400);
    }
}
