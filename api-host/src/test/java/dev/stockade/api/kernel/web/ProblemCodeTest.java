package dev.stockade.api.kernel.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.access.Action;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Problem codes are unique, and each is documented in docs/api-problems.md with its status and slug. */
class ProblemCodeTest {

    @Test
    void codesAndSlugsAreUniqueAndDocumented() throws Exception {
        assertThat(Arrays.stream(ProblemCode.values()).map(ProblemCode::slug)).doesNotHaveDuplicates();
        String doc = Files.readString(Path.of("..", "docs", "api-problems.md"));
        for (ProblemCode c : ProblemCode.values()) {
            String row = "| `" + c.code() + "` | " + c.status().getCode() + " | `" + c.slug() + "` |";
            assertThat(doc).as("docs/api-problems.md row for %s", c).contains(row);
        }
    }

    @Test
    void everyActionOfTheAuthorizationTableIsDocumented() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "platform.md"));
        for (Action a : Action.values()) {
            assertThat(doc).as("docs/platform.md names %s", a).contains("`" + a.name() + "`");
        }
    }
}
