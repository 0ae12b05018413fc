package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every problem that quotes a value of the document shows at most its first 80 characters and its length
 * (issue 25, item 14): a 125 KB value is never echoed into a message or a help text.
 */
class QuotedInputProblemsTest {
    private static final int HUGE = 125_000;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "name: p\nallowedDomains: [{pattern: a.com, verdict: allow, binaries: [\"VALUE\"]}]",
        "name: p\nallowedDomains: [{pattern: a.com, verdict: allow, binaries: [\"/VALUE \"]}]",
        "name: p\nallowedDomains: [{pattern: a.com, verdict: allow, scheme: \"VALUE!\"}]",
        "name: p\nallowedDomains: [{pattern: a.com, verdict: allow, rules: [{method: \"VALUE\"}]}]",
        "name: p\nallowedDomains: [{pattern: \"a.com:VALUE\", verdict: allow}]",
        "name: p\nallowedDomains: [{pattern: \"https://VALUE\", verdict: allow}]",
        "name: p\nallowedDomains: [{pattern: a.com, verdict: \"VALUE\"}]",
        "name: p\nconnectors: [{connectorId: \"VALUE\", allowedTools: [a]}]",
        "name: p\nconnectors: [{connectorId: 3f1c9a52-8d4e-4b7a-9c21-5e6f7a8b9c0d, allowedTools: [\"VALUE*\"]}]",
    })
    void aHugeValueIsClippedWithItsLength(String template) {
        String value = "v".repeat(HUGE);
        List<Problem> problems = PolicyReader.read("p.yaml", template.replace("VALUE", value)).problems();
        assertThat(problems).isNotEmpty();
        assertThat(problems).anySatisfy(
                p -> assertThat(p.message()).containsPattern("v{70,80}…` \\(1250\\d\\d characters\\)"));
        for (Problem p : problems) {
            assertThat(p.message()).doesNotContain("v".repeat(81));
            assertThat(p.help() == null ? "" : p.help()).doesNotContain("v".repeat(81));
        }
    }

    @Test
    void aLongUnknownKeyIsClippedWithItsLength() {
        String key = "k".repeat(1_000); // the reader refuses longer keys, naming its limit of 1024
        List<Problem> problems = PolicyReader.read("p.json", "{\"name\": \"p\", \"" + key + "\": 1}").problems();
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("unknown-key");
            assertThat(p.message()).isEqualTo("unknown key `" + "k".repeat(80) + "…` (1000 characters)");
        });
    }
}
