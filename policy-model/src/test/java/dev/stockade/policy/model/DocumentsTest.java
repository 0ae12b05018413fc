package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.internal.TreeReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentsTest {

    @Test
    void positionsOfKeysAndValues() {
        String text = "name: p\nallowedDomains:\n  - pattern: \"x.com\"\n    verdict: allow\n";
        ParsedDocument d = Documents.parse("p.yaml", text);
        assertThat(d.problems()).isEmpty();
        SourceMap m = d.sourceMap();
        assertThat(m.position("/name")).contains(new SourcePosition(1, 1));
        assertThat(m.valuePosition("/name")).contains(new SourcePosition(1, 7));
        assertThat(m.position("/allowedDomains/0")).contains(new SourcePosition(3, 5));
        assertThat(m.position("/allowedDomains/0/pattern")).contains(new SourcePosition(3, 5));
        assertThat(m.valuePosition("/allowedDomains/0/pattern")).contains(new SourcePosition(3, 14));
        assertThat(m.position("/allowedDomains/0/nothing")).isEmpty();
        assertThat(m.nearest("/allowedDomains/0/nothing/deeper")).isEqualTo(new SourcePosition(3, 5));
        assertThat(m.nearest("/zzz")).isEqualTo(new SourcePosition(1, 1));
    }

    @Test
    void jsonPositionsAndEscapedPointers() {
        String text = "{\n  \"name\": \"p\",\n  \"env\": {\"a/b~c\": \"v\"}\n}";
        ParsedDocument d = Documents.parse("p.json", text);
        assertThat(d.problems()).isEmpty();
        assertThat(d.sourceMap().position("/env/a~1b~0c")).contains(new SourcePosition(3, 11));
        assertThat(d.root().at("/env/a~1b~0c").asText()).isEqualTo("v");
    }

    @Test
    void rebaseGivesTheNestedDocumentsPointers() {
        String text = "cases:\n  - policy:\n      name: p\n";
        SourceMap m = Documents.parse("t.yaml", text).sourceMap().rebase("/cases/0/policy");
        assertThat(m.position("/name")).contains(new SourcePosition(3, 7));
        assertThat(m.position("")).isPresent();
        assertThat(m.position("/cases")).isEmpty();
    }

    @Test
    void duplicateKeysAreProblemsAndTheFirstWins() {
        ParsedDocument d = Documents.parse("p.yaml", "name: a\nname: b\n");
        assertThat(d.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("duplicate-key");
            assertThat(p.pointer()).isEqualTo("/name");
            assertThat(p.line()).isEqualTo(2);
        });
        assertThat(d.root().get("name").asText()).isEqualTo("a");
        assertThat(Documents.parse("p.json", "{\"name\": \"a\", \"name\": \"b\"}").problems())
                .extracting(Problem::code).containsExactly("duplicate-key");
    }

    @Test
    void aliasesAreRefusedWithoutExpansion() {
        // A billion-laughs shape: each alias would double the size if expanded.
        StringBuilder sb = new StringBuilder("a: &a [x, x]\n");
        for (int i = 0; i < 30; i++) {
            sb.append("b").append(i).append(": &b").append(i).append(" [*").append(i == 0 ? "a" : "b" + (i - 1))
                    .append(", *").append(i == 0 ? "a" : "b" + (i - 1)).append("]\n");
        }
        ParsedDocument d = Documents.parse("p.yaml", sb.toString());
        assertThat(d.problems()).isNotEmpty().allSatisfy(p -> assertThat(p.code()).isEqualTo("yaml-alias"));
        assertThat(PolicyReader.read("p.yaml", sb.toString()).valid()).isFalse();
    }

    @Test
    void limitsAreProblemsNotExceptions() {
        String big = "name: p\ndescription: " + "x".repeat(TreeReader.MAX_CHARS) + "\n";
        assertThat(Documents.parse("p.yaml", big).problems()).extracting(Problem::code).containsExactly("document-too-large");
        String deepYaml = "[".repeat(200) + "]".repeat(200);
        ParsedDocument deep = Documents.parse("p.yaml", deepYaml);
        assertThat(deep.root()).isNull();
        assertThat(deep.problems()).extracting(Problem::code).containsAnyOf("too-deep", "limit-exceeded", "syntax");
        String deepJson = "{\"a\":".repeat(100) + "1" + "}".repeat(100);
        assertThat(Documents.parse("p.json", deepJson).problems()).isNotEmpty();
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i < TreeReader.MAX_NODES + 10; i++) {
            many.append("1,");
        }
        many.append("1]");
        assertThat(Documents.parse("p.json", many.toString()).problems()).extracting(Problem::code)
                .containsExactly("too-many-nodes");
    }

    @Test
    void syntaxErrorsHaveAPosition() {
        ParsedDocument d = Documents.parse("p.yaml", "name: p\nenv: [a\n");
        assertThat(d.root()).isNull();
        assertThat(d.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("syntax");
            assertThat(p.line()).isGreaterThan(0);
        });
        assertThat(Documents.parse("p.yaml", "").problems()).extracting(Problem::code).containsExactly("empty-document");
        assertThat(Documents.parse("p.yaml", null).problems()).extracting(Problem::code).containsExactly("empty-document");
        assertThat(Documents.parse("p.yaml", "a: 1\n---\nb: 2\n").problems()).extracting(Problem::code)
                .containsExactly("multiple-documents");
    }

    @Test
    void parseAllReadsAStreamWithPositionsInTheWholeText() {
        List<ParsedDocument> docs = Documents.parseAll("t.yaml", "name: a\n---\nname: b\n---\nname: c\n");
        assertThat(docs).hasSize(3);
        assertThat(docs).allSatisfy(d -> assertThat(d.problems()).isEmpty());
        assertThat(docs.get(2).root().get("name").asText()).isEqualTo("c");
        assertThat(docs.get(2).sourceMap().position("/name")).contains(new SourcePosition(5, 1));
        List<ParsedDocument> broken = Documents.parseAll("t.yaml", "name: a\n---\nname: [\n");
        assertThat(broken).hasSize(2);
        assertThat(broken.get(0).problems()).isEmpty();
        assertThat(broken.get(1).problems()).extracting(Problem::code).containsExactly("syntax");
    }

    @Test
    void flowYamlAndJsonBothRead() {
        assertThat(Documents.parse("p", "{name: p}").root().get("name").asText()).isEqualTo("p");
        assertThat(Documents.parse("p", "{\"name\": \"p\"}").root().get("name").asText()).isEqualTo("p");
        assertThat(Documents.parse("p", "{\"name\": ").problems()).extracting(Problem::code).containsExactly("syntax");
    }
}
