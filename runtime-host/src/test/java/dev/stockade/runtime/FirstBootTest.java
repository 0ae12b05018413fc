package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.store.AgentProfile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** First-boot identity seeding and the settings file's model overrides. */
class FirstBootTest {
    @TempDir
    Path home;

    @Test
    void generatedIdentityIsReusedAndLaterEnvChangesNothing() throws Exception {
        TestRuntime rt = new TestRuntime(home, Map.of("AGENT_NAME", "Otto", "TEAM_NAME", "Blue",
                "OWNER_USER_ID", "user-42")).start();
        AgentProfile first = rt.runtime.profileAtStart();
        assertThat(first.name()).isEqualTo("Otto");
        assertThat(first.teamName()).isEqualTo("Blue");
        assertThat(first.ownerUserId()).isEqualTo("user-42");
        rt.close();
        rt.env.put("AGENT_NAME", "Renamed");
        rt.start();
        assertThat(rt.runtime.profileAtStart()).isEqualTo(first);
        rt.close();
    }

    @Test
    void pinnedAgentIdIsUsed() throws Exception {
        String id = "6f1c2d3e-4b5a-4c6d-8e7f-0123456789ab";
        try (TestRuntime rt = new TestRuntime(home, Map.of("AGENT_ID", id)).start()) {
            assertThat(rt.runtime.profileAtStart().id()).isEqualTo(id);
            assertThat(rt.get("/agents/profile").json().path("id").asText()).isEqualTo(id);
        }
    }

    @Test
    void settingsFileSeedsModelOverridesOnceAndBadValuesLeaveThemEmpty() throws Exception {
        Files.createDirectories(home.resolve("data"));
        Files.writeString(home.resolve("data/settings.json"),
                "{\"modelId\":\"claude-sonnet-4-5\",\"heartbeatModelId\":\"   \",\"cronModelId\":42}");
        TestRuntime rt = new TestRuntime(home, Map.of()).start();
        AgentProfile p = rt.runtime.profileAtStart();
        assertThat(p.modelOverride()).isEqualTo("claude-sonnet-4-5");
        assertThat(p.heartbeatModelOverride()).isNull();
        assertThat(p.cronModelOverride()).isNull();
        rt.close();
        Files.writeString(home.resolve("data/settings.json"), "{\"modelId\":\"other\",\"cronModelId\":\"x\"}");
        rt.start();
        assertThat(rt.runtime.profileAtStart().modelOverride()).isEqualTo("claude-sonnet-4-5");
        assertThat(rt.runtime.profileAtStart().cronModelOverride()).isNull();
        rt.close();
    }

    @Test
    void malformedSettingsFileSeedsNothing() throws Exception {
        Files.createDirectories(home.resolve("data"));
        Files.writeString(home.resolve("data/settings.json"), "{modelId: nope");
        try (TestRuntime rt = new TestRuntime(home, Map.of()).start()) {
            assertThat(rt.runtime.profileAtStart().modelOverride()).isNull();
        }
    }

    @Test
    void aSettingsFileWithADuplicateKeyOrTextAfterItSeedsNothingAndSaysWhy() throws Exception {
        Files.createDirectories(home.resolve("data"));
        for (String[] c : new String[][] {
                {"{\"modelId\":\"first\",\"modelId\":\"second\"}", "names the key `modelId` twice"},
                {"{\"modelId\":\"first\"} {\"modelId\":\"second\"}", "has text after the JSON value"}}) {
            for (String f : new String[] {"agent.db", "agent.db-wal", "agent.db-shm"}) {
                Files.deleteIfExists(home.resolve("data").resolve(f)); // a first boot each time
            }
            Files.writeString(home.resolve("data/settings.json"), c[0]);
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            Log.to(new PrintStream(log, true, StandardCharsets.UTF_8));
            try (TestRuntime rt = new TestRuntime(home, Map.of()).start()) {
                assertThat(rt.runtime.profileAtStart().modelOverride()).isNull();
            } finally {
                Log.to(System.err);
            }
            assertThat(log.toString(StandardCharsets.UTF_8)).contains("seed.settings_file").contains(c[1])
                    .contains("no model overrides seeded");
        }
    }
}
