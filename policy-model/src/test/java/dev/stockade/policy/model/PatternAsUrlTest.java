package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A URL written where a domain pattern goes is named as such, with what to write instead (issue 25, item
 * 15; docs/semantics.md, "A URL where a domain pattern goes"), and it is the only problem of the pattern.
 */
class PatternAsUrlTest {

    private static Problem only(String pattern) {
        List<Problem> problems = PolicyReader.read("p.yaml", "name: p\nallowedDomains:\n  - pattern: \"" + pattern
                + "\"\n    verdict: allow\n").problems();
        assertThat(problems).as(pattern).hasSize(1);
        Problem p = problems.get(0);
        assertThat(p.code()).isEqualTo("pattern-is-url");
        assertThat(p.pointer()).isEqualTo("/allowedDomains/0/pattern");
        assertThat(p.line()).isEqualTo(3);
        return p;
    }

    @Test
    void aUrlIsNotReadAsAPort() {
        Problem p = only("https://example.com");
        assertThat(p.message()).isEqualTo("pattern `https://example.com` is a url, not a domain pattern");
        assertThat(p.help()).isEqualTo("write `example.com` and put the scheme in `scheme: https`");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "http://example.com/|write `example.com` and put the scheme in `scheme: http`",
        "HTTPS://API.example.com:443|write `API.example.com` and put the scheme in `scheme: https`",
        "https://example.com:8443/|write `example.com:8443` and put the scheme in `scheme: https`",
        "wss://user:pw@example.com/socket|write `example.com` and put the scheme in `scheme: wss` and the path in a rule: `rules: [{path: /socket}]`",
        "https://*.example.com/api/*?x=1#f|write `*.example.com` and put the scheme in `scheme: https` and the path in a rule: `rules: [{path: /api/*}]`",
        "//example.com|write `example.com`",
        "example.com/api/v1|write `example.com` and the path in a rule: `rules: [{path: /api/v1}]`",
        "example.com?q=1|write `example.com`",
        "https://|write the host alone, as in `example.com` and put the scheme in `scheme: https`",
        "1http://example.com|write `example.com`",
    })
    void theHelpSaysWhatToWriteInstead(String pattern, String help) {
        assertThat(only(pattern).help()).isEqualTo(help);
    }

    @Test
    void withoutASchemeThePathIsNamed() {
        assertThat(only("example.com/api").message())
                .isEqualTo("pattern `example.com/api` holds a path, query or fragment; a domain pattern names hosts only");
    }

    @Test
    void aLongUrlIsClippedInTheMessageAndTheHelp() {
        String host = "a".repeat(100) + ".com";
        Problem p = only("https://" + host + "/x");
        assertThat(p.message()).contains("…` (" + ("https://" + host + "/x").length() + " characters)");
        assertThat(p.help()).startsWith("write `" + "a".repeat(80) + "…` (104 characters)");
    }

    @Test
    void patternsThatAreNotUrlsAreJudgedAsBefore() {
        List<Problem> port = PolicyReader.read("p.yaml",
                "name: p\nallowedDomains: [{pattern: \"example.com:https\", verdict: allow}]\n").problems();
        assertThat(port).extracting(Problem::code).containsExactly("invalid-port");
        assertThat(PolicyReader.read("p.yaml",
                "name: p\nallowedDomains: [{pattern: \"api.example.com:8443\", verdict: allow}]\n").problems()).isEmpty();
    }
}
