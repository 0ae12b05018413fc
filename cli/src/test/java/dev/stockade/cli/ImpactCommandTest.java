package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stockade policy impact} through the real entry point on the fixture trail (17 hand-written entries in the
 * export's shape, recorded under {@code current.yaml}) and hand-worked candidates: what each format says and the exit
 * status CI reads.
 */
class ImpactCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @BeforeEach
    void fixtures() throws IOException {
        for (String name : new String[] {"current.yaml", "narrowed.yaml", "widened.yaml", "trail.json"}) {
            try (InputStream in = getClass().getResourceAsStream("impact/" + name)) {
                Files.write(dir.resolve(name), in.readAllBytes());
            }
        }
    }

    private CliRun impact(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "policy";
        all[1] = "impact";
        for (int i = 0; i < args.length; i++) {
            all[i + 2] = args[i].endsWith(".yaml") || args[i].endsWith(".json") ? dir.resolve(args[i]).toString() : args[i];
        }
        return CliRun.of(all);
    }

    @Test
    void theRecordingPolicyChangesNothingAndExitsZero() {
        CliRun run = impact("current.yaml", "--audit", "trail.json");
        assertThat(run.status()).as(run.all()).isZero();
        assertThat(run.out()).contains("replayed 17 recorded decisions from 2026-11-20T10:00:00Z to"
                + " 2026-11-20T10:16:00Z", "newly denied:   0", "unchanged:      11", "not replayable: 6",
                "missing-fields  1", "not-a-policy-decision  2");
    }

    @Test
    void aNarrowedCandidateFailsTheBuildUnlessAccepted() {
        CliRun run = impact("narrowed.yaml", "--audit", "trail.json");
        assertThat(run.status()).as(run.all()).isEqualTo(1);
        assertThat(run.out()).contains("newly denied:   4", "newly denied (what would break):",
                "egress  build-1  api.github.com:443  POST /repos/acme/app/pulls  x1",
                "egress  build-1  pypi.org:443  (connection)  x1",
                "[entry-allow -> caller-not-listed]",
                "tool-call  sandbox-token:7e0f3c2a-0000-4000-8000-000000000002  0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10"
                        + "  create_issue  x1");
        assertThat(impact("narrowed.yaml", "--audit", "trail.json", "--accept-breaking").status()).isZero();
    }

    @Test
    void aWidenedCandidateReportsWhatOpensAsJson() throws IOException {
        CliRun run = impact("widened.yaml", "--audit", "trail.json", "--format", "json");
        assertThat(run.status()).as(run.all()).isZero();
        JsonNode report = JSON.readTree(run.out());
        assertThat(report.path("newlyAllowed").asLong()).isEqualTo(2);
        assertThat(report.path("breaking").asBoolean()).isFalse();
        assertThat(report.path("deniedGroups")).isEmpty();
        assertThat(report.path("allowedGroups").findValuesAsText("operation"))
                .containsExactlyInAnyOrder("DELETE /repos/acme/app", "(connection)");
        assertThat(report.path("notReplayableBy").findValuesAsText("reason")).contains("graphql-not-recorded");
    }

    @Test
    void sarifPlacesEachBreakOnTheCandidateEntryThatDecides() throws IOException {
        CliRun run = impact("narrowed.yaml", "--audit", "trail.json", "--format", "sarif");
        assertThat(run.status()).isEqualTo(1);
        JsonNode sarif = JSON.readTree(run.out());
        assertThat(sarif.path("version").asText()).isEqualTo("2.1.0");
        JsonNode results = sarif.path("runs").path(0).path("results");
        assertThat(results).hasSize(4);
        JsonNode pulls = null;
        for (JsonNode r : results) {
            assertThat(r.path("ruleId").asText()).isEqualTo("newly-denied");
            assertThat(r.path("level").asText()).isEqualTo("error");
            if (r.path("message").path("text").asText().contains("/pulls")) {
                pulls = r;
            }
        }
        // decided by entry 0 of narrowed.yaml (api.github.com), which starts on line 5 of the file
        JsonNode location = pulls.path("locations").path(0).path("physicalLocation");
        assertThat(location.path("artifactLocation").path("uri").asText()).endsWith("narrowed.yaml");
        assertThat(location.path("region").path("startLine").asInt()).isEqualTo(5);
    }

    @Test
    void markdownIsATableForAPullRequestComment() {
        CliRun run = impact("narrowed.yaml", "--audit", "trail.json", "--format", "markdown");
        assertThat(run.out()).startsWith("### Policy impact: breaking")
                .contains("| kind | sandbox | target | operation | count | first seen | last seen | reason now |",
                        "| egress | `build-1` | `mirror.example.com:80` | `GET /simple/` | 1 | 2026-11-20T10:09:00Z |");
    }

    @Test
    void aBrokenCandidateIsPlacedByFileLineAndColumn() throws IOException {
        Files.writeString(dir.resolve("bad.yaml"), "name: agent\nallowedDomains:\n  - pattern: a.com\n"
                + "    verdict: maybe\n");
        CliRun run = impact("bad.yaml", "--audit", "trail.json");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("bad.yaml:4:5: error[unknown-value]: `maybe` is not a valid `verdict`");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aBrokenTrailSaysWhereAndNeitherOrBothSourcesAreRefused() throws IOException {
        Files.writeString(dir.resolve("broken.json"), "{\"items\": [\n  {\"kind\": \"egress\",}\n]}");
        CliRun broken = impact("current.yaml", "--audit", "broken.json");
        assertThat(broken.status()).isEqualTo(2);
        assertThat(broken.err()).contains("broken.json: not JSON", "at line 2");
        assertThat(impact("current.yaml", "--audit", "missing.json").err()).contains("cannot read");
        CliRun neither = impact("current.yaml");
        assertThat(neither.status()).isEqualTo(2);
        assertThat(neither.err()).contains("--audit FILE or a platform's with --org and --since (one)");
        assertThat(impact("current.yaml", "--audit", "trail.json", "--org", "o").status()).isEqualTo(2);
    }

    @Test
    void aPlatformWindowIsBoundedBeforeAnythingIsAsked() {
        CliRun tooLong = impact("current.yaml", "--org", "7c3e9a10-0000-4000-8000-000000000001", "--since", "8d",
                "--url", "http://127.0.0.1:9", "--token", "t");
        assertThat(tooLong.status()).isEqualTo(2);
        assertThat(tooLong.err()).contains("the window is longer than 7 days");
        CliRun noStart = impact("current.yaml", "--org", "7c3e9a10-0000-4000-8000-000000000001");
        assertThat(noStart.status()).isEqualTo(2);
        assertThat(noStart.err()).contains("needs --org and --since");
    }
}
