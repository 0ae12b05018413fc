package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The problem-code enum and docs/problems.md name the same codes, each once per table row. */
class ProblemCodeTest {
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z0-9-]+)`");

    private static Set<String> documented() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "problems.md"));
        Set<String> codes = new TreeSet<>();
        Matcher m = ROW.matcher(doc);
        while (m.find()) {
            codes.add(m.group(1));
        }
        return codes;
    }

    @Test
    void everyCodeIsDocumentedAndEveryDocumentedCodeExists() throws IOException {
        Set<String> enumCodes = Arrays.stream(ProblemCode.values()).map(ProblemCode::code)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(documented()).isEqualTo(enumCodes);
    }

    @Test
    void codesAreKebabCaseAndDistinct() {
        assertThat(ProblemCode.values()).allSatisfy(c -> assertThat(c.code()).matches("[a-z0-9]+(-[a-z0-9]+)*"));
        assertThat(Arrays.stream(ProblemCode.values()).map(ProblemCode::code).distinct())
                .hasSize(ProblemCode.values().length);
    }
}
