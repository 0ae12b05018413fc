package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProblemRendererTest {
    static final String TEXT = "name: p\nallowedDomains:\n  - pattern: x.com\n    verdict: allow\n    binaries: [git]\n";

    @Test
    void humanShowsLineCaretAndHelp() {
        ReadResult r = PolicyReader.read("p.yaml", TEXT);
        String out = ProblemRenderer.human(r.problems(), "p.yaml", TEXT);
        assertThat(out).isEqualTo(String.join("\n",
                "p.yaml:5:16: error[binary-not-absolute]: binaries entry `git` must be an absolute path",
                " 5 |     binaries: [git]",
                "   |                ^",
                "  = help: use `/usr/bin/git`",
                ""));
    }

    @Test
    void humanWithoutPositionNamesThePointer() {
        Problem p = Problem.error("missing-key", "/name", "missing required key `name`", null);
        assertThat(ProblemRenderer.human(List.of(p), "x", null))
                .isEqualTo("x: error[missing-key]: missing required key `name` (at `/name`)\n");
    }

    @Test
    void problemDetails() {
        ReadResult r = PolicyReader.read("p.yaml", "{name: p, colour: red, allowedDomains: [{pattern: 'a..b', verdict: allow}]}");
        ObjectNode o = ProblemRenderer.problemDetails(r.problems(), "the policy is not valid", 422);
        assertThat(o.get("type").asText()).isEqualTo("https://stockade.dev/problems/invalid-policy");
        assertThat(o.get("title").asText()).isEqualTo("Invalid policy");
        assertThat(o.get("status").asInt()).isEqualTo(422);
        assertThat(o.get("detail").asText()).isEqualTo("the policy is not valid");
        assertThat(o.get("errors")).hasSize(2);
        assertThat(o.get("errors").get(0).get("pointer").asText()).isEqualTo("/colour");
        assertThat(o.get("errors").get(0).get("code").asText()).isEqualTo("unknown-key");
        assertThat(o.get("errors").get(0).get("detail").asText()).isEqualTo("unknown key `colour`");
        ObjectNode single = ProblemRenderer.problemDetails(
                List.of(Problem.error("missing-key", "/name", "missing required key `name`", null)), null, 400);
        assertThat(single.get("type").asText()).isEqualTo("https://stockade.dev/problems/missing-key");
    }

    @Test
    void sarif() {
        ReadResult r = PolicyReader.read("p.yaml", TEXT);
        ObjectNode log = ProblemRenderer.sarif(Map.of("policies/p.yaml", r.problems()));
        assertThat(log.get("version").asText()).isEqualTo("2.1.0");
        var run = log.get("runs").get(0);
        assertThat(run.at("/tool/driver/name").asText()).isEqualTo("stockade");
        assertThat(run.at("/tool/driver/rules/0/id").asText()).isEqualTo("binary-not-absolute");
        var result = run.get("results").get(0);
        assertThat(result.get("ruleId").asText()).isEqualTo("binary-not-absolute");
        assertThat(result.get("level").asText()).isEqualTo("error");
        assertThat(result.at("/locations/0/physicalLocation/artifactLocation/uri").asText()).isEqualTo("policies/p.yaml");
        assertThat(result.at("/locations/0/physicalLocation/region/startLine").asInt()).isEqualTo(5);
        assertThat(result.at("/locations/0/physicalLocation/region/startColumn").asInt()).isEqualTo(16);
    }
}
