package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stockade policy suggest} through the real entry point on the impact fixture trail (17 hand-written entries):
 * the policy it writes, worked out by hand from the trail; that {@code policy lint} accepts it and {@code policy
 * impact} of it against the same trail exits 0; and how bad input is refused.
 */
class SuggestCommandTest {
    @TempDir
    Path dir;

    @BeforeEach
    void fixtures() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("impact/trail.json")) {
            Files.write(dir.resolve("trail.json"), in.readAllBytes());
        }
    }

    private String at(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void theSuggestionAdmitsExactlyWhatTheTrailAllowed() {
        CliRun run = CliRun.of("policy", "suggest", "--audit", at("trail.json"));
        assertThat(run.status()).as(run.all()).isZero();
        // by hand: api.github.com saw GET .../issues (twice), POST .../pulls and a CONNECT, all from gh; pypi.org one
        // passthrough from pip; mirror.example.com one plain GET from curl; two connector tools reached the connector
        assertThat(run.out()).startsWith("# suggested by `stockade policy suggest` from 17 audit entries recorded"
                + " from 2026-11-20T10:00:00Z to 2026-11-20T10:16:00Z\n"
                + "# admits 8 allowed entries; left out: 3 denied, 6 not a policy's allow\n"
                + "# rules: --min-subdomains 3, --min-paths 4 (docs/policy-impact.md, \"Suggest\")\n");
        assertThat(run.out()).contains("""
                networkDefaultVerdict: "deny"
                allowedDomains:
                - pattern: "api.github.com:443"
                  verdict: "allow"
                  transport: "upstream"
                  scheme: "https"
                  rules:
                  - method: "GET"
                    path: "/repos/acme/app/issues"
                  - method: "POST"
                    path: "/repos/acme/app/pulls"
                  binaries:
                  - "/usr/bin/gh"
                - pattern: "mirror.example.com:80"
                  verdict: "allow"
                  transport: "upstream"
                  scheme: "http"
                  rules:
                  - method: "GET"
                    path: "/simple/"
                  binaries:
                  - "/usr/bin/curl"
                - pattern: "pypi.org:443"
                  verdict: "allow"
                  transport: "direct"
                  scheme: "https"
                  binaries:
                  - "/usr/bin/pip"
                connectors:
                - connectorId: "0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10"
                  allowedTools:
                  - "create_issue"
                  - "search_issues"
                """);
        assertThat(run.err()).isEmpty();
    }

    @Test
    void lintAcceptsTheSuggestionAndItsImpactOnTheSameTrailBreaksNothing() {
        CliRun run = CliRun.of("policy", "suggest", "--audit", at("trail.json"), "-o", at("suggested.yaml"));
        assertThat(run.status()).as(run.all()).isZero();
        assertThat(run.out()).isEmpty();
        CliRun lint = CliRun.of("policy", "lint", "--strict", at("suggested.yaml"));
        assertThat(lint.status()).as(lint.all()).isZero();
        CliRun impact = CliRun.of("policy", "impact", at("suggested.yaml"), "--audit", at("trail.json"));
        assertThat(impact.status()).as(impact.all()).isZero();
        assertThat(impact.out()).contains("newly denied:   0", "unchanged:      11");
    }

    @Test
    void anotherSandboxLeavesOnlyItsOwnEntries() {
        CliRun run = CliRun.of("policy", "suggest", "--audit", at("trail.json"), "--sandbox", "build-2");
        assertThat(run.status()).as(run.all()).isZero();
        assertThat(run.out()).contains("admits 0 allowed entries", "of other sandboxes", "allowedDomains: []")
                .doesNotContain("connectors:");
        assertThat(run.err()).contains("no allowed traffic in the window: the suggestion denies everything");
    }

    @Test
    void recordedTextCannotBreakOutOfTheHeaderComment() throws IOException {
        // a host the host grammar refuses, holding a line break and YAML of its own: listed escaped, never admitted
        Files.writeString(dir.resolve("hostile.json"), """
                {"items": [
                  {"at": "2026-11-20T10:00:00Z", "kind": "egress", "action": "allow", "outcome": "success",
                   "actor": {"type": "sandbox", "id": "sb"}, "target": "x\\nnetworkDefaultVerdict: allow #:443",
                   "details": {"listener": "connect", "reason": "entry-allow"}},
                  {"at": "2026-11-20T10:01:00Z", "kind": "egress", "action": "allow", "outcome": "success",
                   "actor": {"type": "sandbox", "id": "sb"}, "target": "a.b.example:443",
                   "details": {"listener": "connect", "reason": "entry-allow"}}]}
                """);
        CliRun run = CliRun.of("policy", "suggest", "--audit", at("hostile.json"), "-o", at("out.yaml"));
        assertThat(run.status()).as(run.all()).isZero();
        String written = Files.readString(dir.resolve("out.yaml"));
        assertThat(written).contains("# not admitted (no pattern can name them): x\\x0anetworkDefaultVerdict: allow #\n")
                .contains("networkDefaultVerdict: \"deny\"").doesNotContain("\nnetworkDefaultVerdict: allow");
        assertThat(CliRun.of("policy", "lint", "--strict", at("out.yaml")).status()).isZero();
        // the proxy's host grammar refuses such a host before any policy decides, so no real trail records it as
        // allowed; replay says so as a change rather than the suggestion admitting what no pattern can name
        CliRun impact = CliRun.of("policy", "impact", at("out.yaml"), "--audit", at("hostile.json"));
        assertThat(impact.status()).as(impact.all()).isEqualTo(1);
        assertThat(impact.out()).contains("newly denied:   1", "unchanged:      1");
    }

    @Test
    void badInputIsRefusedWithExitTwoAndNoStackTrace() throws IOException {
        CliRun neither = CliRun.of("policy", "suggest");
        assertThat(neither.status()).isEqualTo(2);
        assertThat(neither.err()).contains("give the trail with --audit FILE or a platform's with --org and --since");
        CliRun one = CliRun.of("policy", "suggest", "--audit", at("trail.json"), "--min-subdomains", "1");
        assertThat(one.status()).isEqualTo(2);
        assertThat(one.err()).contains("--min-subdomains and --min-paths must be at least 2");
        Files.writeString(dir.resolve("broken.json"), "{\"items\": [{\"kind\": \"egress\"},\n  42]}");
        CliRun broken = CliRun.of("policy", "suggest", "--audit", at("broken.json"));
        assertThat(broken.status()).isEqualTo(2);
        assertThat(broken.err()).contains("each trail entry is a JSON object at line 2").doesNotContain("\tat ");
        CliRun missing = CliRun.of("policy", "suggest", "--audit", at("absent.json"));
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("not a regular file");
    }
}
