package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Text a careless or malicious pull request would contain: positions of characters a policy cannot hold,
 * SnakeYAML's own positions, escaped and clipped human output.
 */
class HostileTextTest {

    private static Problem only(String text) {
        List<Problem> problems = PolicyReader.read("p.yaml", text).problems();
        assertThat(problems).hasSize(1);
        return problems.get(0);
    }

    @ParameterizedTest
    @ValueSource(ints = {0x00, 0x01, 0x07, 0x08, 0x0b, 0x0c, 0x1b, 0x7f, 0x80, 0x9b, 0xfffe, 0xffff, 0xd800, 0xdc00})
    void aCharacterAPolicyCannotHoldIsPlacedWhereItIs(int c) {
        String text = "name: p\ndescription: \"abc" + (char) c + "def\"\n";
        Problem p = only(text);
        assertThat(p.code()).isEqualTo("control-character");
        assertThat(p.line()).isEqualTo(2);
        assertThat(p.column()).isEqualTo(18);
        assertThat(p.message()).contains(String.format("U+%04X", c));
    }

    @Test
    void jsonTextIsCheckedTheSameWay() {
        Problem p = only("{\"name\": \"p\",\n \"description\": \"a\u0000\"}");
        assertThat(p.code()).isEqualTo("control-character");
        assertThat(p.line()).isEqualTo(2);
        assertThat(p.column()).isEqualTo(19);
    }

    @Test
    void tabsNewlinesCarriageReturnsAndNelArePermitted() {
        assertThat(PolicyReader.read("p.yaml", "name: p\r\ndescription: \"a\tb\u0085c\"\r\n").problems()).isEmpty();
    }

    @Test
    void aTabIndentIsReportedWhereTheTabIs() {
        Problem p = only("name: p\nallowedDomains:\n\t- pattern: a.com\n");
        assertThat(p.code()).isEqualTo("syntax");
        assertThat(p.line()).isEqualTo(3);
        assertThat(p.column()).isEqualTo(1);
        assertThat(p.message()).contains("TAB");
    }

    @Test
    void aBadIndentIsReportedWhereSnakeYamlSawIt() {
        Problem p = only("name: p\nallowedDomains:\n  - pattern: a.com\n   verdict: allow\n");
        assertThat(p.code()).isEqualTo("syntax");
        assertThat(p.line()).isEqualTo(4);
    }

    @ParameterizedTest
    @CsvSource({"on", "off", "yes", "no", "y", "n", "True", "FALSE", "On"})
    void yaml11BooleansAreStrings(String word) {
        Problem p = only("name: p\npiiMasking: {failOpen: " + word + "}\n");
        assertThat(p.code()).isEqualTo("wrong-type");
        assertThat(p.message()).contains("must be a boolean, not a string");
        assertThat(p.help()).contains("`true` or `false`");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0x1f", "0o17", "1_000", "0b101", "1:20"})
    void yaml11IntegersAreStrings(String word) {
        ParsedDocument doc = Documents.parse("p.yaml", "a: " + word + "\n");
        assertThat(doc.root().get("a").isTextual()).as(word).isTrue();
    }

    @Test
    void controlCharactersInValuesAreEscapedInHumanOutput() {
        // Written as YAML escapes, the characters reach the value and would reach the message.
        ReadResult r = PolicyReader.read("p.yaml",
                "name: p\nallowedDomains:\n  - {pattern: \"e\\e[2J\\a\\n::error file=x::pwned\", verdict: allow}\n");
        String out = ProblemRenderer.human(r.problems(), r.sourceName(), r.text());
        assertThat(r.problems()).isNotEmpty();
        assertThat(out).doesNotContain("\u001b").doesNotContain("\u0007").contains("\\x1b");
        assertThat(out.lines()).noneMatch(line -> line.startsWith("::error"));
    }

    @Test
    void aFileNameWithControlCharactersIsEscaped() {
        String out = ProblemRenderer.human(List.of(Problem.error("syntax", "", "x", null)), "a\n::error::b", "");
        assertThat(out).startsWith("a\\x0a::error::b: error[syntax]");
    }

    @Test
    void aHugeLineWithManyProblemsPrintsAWindowPerProblem() {
        String line = "x".repeat(1_000_000);
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            problems.add(Problem.error("glob-syntax", "", "bad", null).at(new SourcePosition(1, 1 + i * 10_000)));
        }
        String out = ProblemRenderer.human(problems, "p.yaml", line);
        assertThat(out.length()).isLessThan(100 * 400);
        // The caret still sits under the reported column: "..." plus the window before it.
        List<String> lines = out.lines().toList();
        String source = lines.get(4);
        String caret = lines.get(5);
        assertThat(source).startsWith(" 1 | ...");
        assertThat(caret.indexOf('^')).isEqualTo(" 1 | ...".length() + ProblemRenderer.LINE_WINDOW);
    }

    @Test
    void theCaretCountsEscapedCharacters() {
        String out = ProblemRenderer.human(List.of(Problem.error("x", "", "m", null).at(new SourcePosition(1, 3))),
                "p.yaml", "\u001bab");
        List<String> lines = out.lines().toList();
        assertThat(lines.get(1)).isEqualTo(" 1 | \\x1bab");
        assertThat(lines.get(2)).isEqualTo("   |      ^");
    }

    @Test
    void aMessageQuotingAHugeValueIsClipped() {
        Problem p = Problem.error("invalid-uuid", "/x", "`" + "9".repeat(100_000) + "` is not a uuid", null);
        assertThat(p.message()).hasSize(Problem.MAX_TEXT).endsWith("...");
    }
}
