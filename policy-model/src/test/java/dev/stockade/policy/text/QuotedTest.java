package dev.stockade.policy.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The core's one rule for quoting input: short input whole, long input clipped with its length. */
class QuotedTest {

    @Test
    void shortInputIsQuotedWhole() {
        assertThat(Quoted.input("api.example.com")).isEqualTo("`api.example.com`");
        assertThat(Quoted.input("x".repeat(80))).isEqualTo("`" + "x".repeat(80) + "`");
        assertThat(Quoted.clip("x".repeat(80))).isEqualTo("x".repeat(80));
    }

    @Test
    void longInputShowsItsFirstEightyCharactersAndItsLength() {
        String url = "https://example.com/" + "a".repeat(125_000);
        String quoted = Quoted.input(url);
        assertThat(quoted).isEqualTo("`https://example.com/" + "a".repeat(60) + "…` (125020 characters)");
        assertThat(Quoted.clip(url)).isEqualTo("https://example.com/" + "a".repeat(60) + "… (125020 characters)");
    }

    @Test
    void theClipNeverSplitsASurrogatePair() {
        String text = "x".repeat(79) + "\uD83D\uDE00" + "y".repeat(10);
        assertThat(Quoted.clip(text)).isEqualTo("x".repeat(79) + "… (91 characters)");
    }

    @Test
    void theEscapeSeesOnlyWhatIsShown() {
        StringBuilder seen = new StringBuilder();
        String quoted = Quoted.input("\n".repeat(1_000), shown -> {
            seen.append(shown);
            return shown.replace("\n", "\\n");
        });
        assertThat(seen).hasSize(80);
        assertThat(quoted).isEqualTo("`" + "\\n".repeat(80) + "…` (1000 characters)");
    }

    @Test
    void betweenBuildsTheSameLineAsQuotingThenJoining() {
        java.util.function.UnaryOperator<String> escape = shown -> shown.replace("`", "\\u0060");
        for (String input : new String[] {"", "viewer", "a`b", "x".repeat(80), "x".repeat(81), "y".repeat(5_000),
                "x".repeat(79) + "\uD83D\uDE00" + "y", null}) {
            assertThat(Quoted.between("root field ", input, escape, " is not admitted"))
                    .isEqualTo("root field " + Quoted.input(input, escape) + " is not admitted");
        }
        assertThat(Quoted.between("field ", "a`b", escape, " is refused")).isEqualTo("field `a\\u0060b` is refused");
        assertThat(Quoted.between("[", "z".repeat(81), escape, "]"))
                .isEqualTo("[`" + "z".repeat(80) + "…` (81 characters)]");
    }

    @Test
    void nullIsShownAsNull() {
        assertThat(Quoted.input(null)).isEqualTo("`null`");
        assertThat(Quoted.clip(null)).isNull();
    }
}
