package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.store.AgentProfile;
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
}
