package dev.stockade.policy.impact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.Verdict;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one rendering of a suggestion that the CLI writes and the platform answers: header facts, then valid YAML. */
class SuggestionTextTest {
    private static final Instant FIRST = Instant.parse("2026-11-20T10:00:00Z");
    private static final Instant LAST = Instant.parse("2026-11-20T11:00:00Z");

    @Test
    void theHeaderSaysWhatTheSuggestionRestsOnAndRecordedTextStaysOnItsLine() {
        Policy policy = new Policy("drafted", null, Verdict.DENY, null, List.of(DomainEntry.allow("a.example.com:443")),
                null, null, null, null, null, null);
        Suggestion s = new Suggestion(policy, FIRST, LAST, 10, 4, 3, 2, 1, List.of("bad\nhost"),
                List.of(new Suggestion.MadeWildcard("*.example.com:443", List.of("a.example.com", "b.example.com"))));
        SuggestionText text = SuggestionText.of(s, SuggestOptions.defaults().withMinSubdomains(2).withMinPaths(5));

        assertThat(text.header()).isEqualTo("""
                # suggested by `stockade policy suggest` from 10 audit entries recorded from 2026-11-20T10:00:00Z \
                to 2026-11-20T11:00:00Z
                # admits 4 allowed entries; left out: 3 denied, 2 not a policy's allow, 1 of other sandboxes
                # rules: --min-subdomains 2, --min-paths 5 (docs/policy-impact.md, "Suggest")
                # wildcard *.example.com:443 from 2 hosts: a.example.com, b.example.com
                # not admitted (no pattern can name them): bad\\x0ahost
                """);
        assertThat(text.text()).isEqualTo(text.header() + text.yaml());
        Policy read = PolicyReader.read("drafted.yaml", text.yaml()).policy();
        assertThat(read.name()).isEqualTo("drafted");
        assertThat(read.domains()).extracting(DomainEntry::pattern).containsExactly("a.example.com:443");
    }

    @Test
    void aPolicyTheReaderRefusesIsNeverRendered() {
        Policy nameless = new Policy("", null, Verdict.DENY, null, List.of(), null, null, null, null, null, null);
        Suggestion s = new Suggestion(nameless, null, null, 0, 0, 0, 0, 0, List.of(), List.of());
        assertThatThrownBy(() -> SuggestionText.of(s, SuggestOptions.defaults()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("/name");
    }
}
