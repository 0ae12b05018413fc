package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.channel.SlackDestinations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Skills and plugin skills from their directories, read_skill's confinement, and AGENT_PUBLIC_URL links. */
class SkillsAndLinksTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    TestRuntime rt;

    @BeforeEach
    void provider() throws Exception {
        provider = new ProviderDouble();
    }

    @AfterEach
    void stop() {
        if (rt != null) {
            rt.close();
        }
        provider.close();
    }

    private TestRuntime start(Map<String, String> extra) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(TestRuntime.azure(provider));
        env.putAll(extra);
        rt = new TestRuntime(home, env).start();
        return rt;
    }

    private static void skill(Path dir, String frontMatter, String body) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("SKILL.md"), "---\n" + frontMatter + "\n---\n" + body);
    }

    /** Says {@code text} in a new thread; returns the stored tool results of the turn. */
    private List<JsonNode> turn(String text) throws Exception {
        String thread = rt.post("/agents/threads", "{\"title\":\"t\"}").json().path("id").asText();
        TestRuntime.Answer a = rt.post("/agents/threads/" + thread + "/messages", "{\"text\":\"" + text + "\"}");
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        List<JsonNode> results = new ArrayList<>();
        for (Conversations.Message m : new Conversations(rt.runtime.store()).messages(thread)) {
            if (m.role().equals("tool_result")) {
                results.add(ProviderDouble.JSON.readTree(m.content()));
            }
        }
        return results;
    }

    @Test
    void skillsAndPluginSkillsAreListedInThePromptAndReadOnDemand() throws Exception {
        Path data = home.resolve("data");
        skill(data.resolve("skills/release-notes"), "description: Write release notes from merged PRs.",
                "Group changes by area.\n");
        skill(data.resolve("plugins/deploy/skills/rollback"), "name: rollback\ndescription: Roll a deploy back.",
                "Run scripts/rollback.sh.\n");
        Files.writeString(data.resolve("plugins/deploy/skills/rollback/notes.txt"), "two regions");
        skill(data.resolve("skills/broken"), "name: broken", "no description\n");
        skill(data.resolve("skills/Bad Name"), "description: x", "bad\n");
        start(Map.of());
        provider.enqueue(ProviderDouble.Reply.tool(null, "read_skill", "{\"name\":\"deploy:rollback\"}"),
                ProviderDouble.Reply.tool(null, "read_skill", "{\"name\":\"deploy:rollback\",\"file\":\"notes.txt\"}"),
                ProviderDouble.Reply.tool(null, "read_skill", "{\"name\":\"broken\"}"),
                ProviderDouble.Reply.text("Done."));
        List<JsonNode> results = turn("roll back");
        String system = provider.chats().get(0).body().path("system").asText();
        assertThat(system).contains("## Skills", "- release-notes: Write release notes from merged PRs.",
                "- deploy:rollback: Roll a deploy back.").doesNotContain("broken", "Bad Name");
        assertThat(provider.chats().get(0).body().path("tools").findValuesAsText("name")).contains("read_skill");
        assertThat(results.get(0).path("output").asText()).contains("Run scripts/rollback.sh.");
        assertThat(results.get(1).path("output").asText()).endsWith("two regions");
        assertThat(results.get(2).path("error").asBoolean()).isTrue();
    }

    @Test
    void readSkillNeverLeavesTheSkillsDirectory() throws Exception {
        Path data = home.resolve("data");
        skill(data.resolve("skills/s"), "description: A skill.", "body\n");
        Files.writeString(home.resolve("secret.txt"), "do not read");
        Files.createSymbolicLink(data.resolve("skills/s/link.txt"), home.resolve("secret.txt"));
        start(Map.of());
        List<String> attempts = List.of("../../../secret.txt", "/etc/passwd", "link.txt", "missing.txt", ".");
        List<ProviderDouble.Reply> replies = new ArrayList<>();
        for (String f : attempts) {
            replies.add(ProviderDouble.Reply.tool(null, "read_skill", "{\"name\":\"s\",\"file\":\"" + f + "\"}"));
        }
        replies.add(ProviderDouble.Reply.text("ok"));
        provider.enqueue(replies.toArray(ProviderDouble.Reply[]::new));
        List<JsonNode> results = turn("read");
        assertThat(results).hasSize(attempts.size()).allSatisfy(r -> {
            assertThat(r.path("error").asBoolean()).isTrue();
            assertThat(r.path("output").asText()).doesNotContain("do not read", "root:");
        });
    }

    @Test
    void aSkillAddedWhileRunningIsListedAtTheNextTurn() throws Exception {
        start(Map.of());
        provider.fallback(c -> ProviderDouble.Reply.text("ok"));
        turn("one");
        assertThat(provider.chats().get(0).body().path("system").asText()).doesNotContain("## Skills");
        skill(home.resolve("data/skills/late"), "description: Arrived later.", "x\n");
        turn("two");
        assertThat(provider.chats().get(1).body().path("system").asText()).contains("- late: Arrived later.");
    }

    @Test
    void aPublicUrlKeepsItsPathPrefixInLinksTheAgentSends() throws Exception {
        start(Map.of("AGENT_PUBLIC_URL", "https://agents.example.com/team-a/ada///"));
        provider.fallback(c -> ProviderDouble.Reply.text("ok"));
        turn("hi");
        assertThat(provider.chats().get(0).body().path("system").asText())
                .contains("Your public address is https://agents.example.com/team-a/ada.")
                .contains("https://agents.example.com/team-a/ada/chat/<thread id>");
        SlackDestinations slack = new SlackDestinations(rt.runtime.store());
        String main = slack.link("channel", "C0MAIN", true, null);
        assertThat(rt.patch("/agents/webhook-receiver", "{\"enabled\":true}").status()).isEqualTo(200);
        rt.post("/agents/webhook-subscriptions", "{\"name\":\"ci\",\"deliverOnly\":true,\"prompt\":\"built\"}");
        assertThat(rt.post("/agents/webhooks/ci", "{}").status()).isEqualTo(200);
        assertThat(new Conversations(rt.runtime.store()).messages("slack:" + main))
                .extracting(Conversations.Message::content).containsExactly(
                        "built\n\nView in the web chat: https://agents.example.com/team-a/ada/chat/web%3Awebhook%3Aci");
    }

    @Test
    void withoutAPublicUrlTheAgentIsToldToSayWhatToOpen() throws Exception {
        start(Map.of());
        provider.fallback(c -> ProviderDouble.Reply.text("ok"));
        turn("hi");
        assertThat(provider.chats().get(0).body().path("system").asText())
                .contains("You have no public address, so do not write links to yourself.");
    }
}
