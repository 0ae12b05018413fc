package dev.stockade.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.Problem;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The guard every formatting passes before its text is used: the text must read to the same documents and keep
 * every comment, or the file is refused. The formatter is not known to break either, so the guard is checked on
 * hand-made pairs of texts, and the library's known failure on comment placement is checked end to end.
 */
class PolicyFormatGuardTest {

    @Test
    void aLostCommentIsRefusedAtItsPosition() {
        Optional<Problem> lost = PolicyFormat.check("p.yaml", "name: x\n# keep me\nenv: {A: b}\n", "name: x\nenv: {A: b}\n");
        assertThat(lost).get().satisfies(p -> {
            assertThat(p.code()).isEqualTo("fmt-refused");
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.column()).isEqualTo(1);
            assertThat(p.message()).isEqualTo("formatting would lose this comment");
        });
    }

    @Test
    void aChangedValueIsRefused() {
        Optional<Problem> changed = PolicyFormat.check("p.yaml", "name: x\nenv: {A: '1'}\n", "name: x\nenv: {A: 1}\n");
        assertThat(changed).get().extracting(Problem::message)
                .isEqualTo("formatting would change what the file says; left as it is");
    }

    @Test
    void movedKeysAndCommentsPass() {
        assertThat(PolicyFormat.check("p.yaml", "env: {A: b}  # why\nname: x\n", "name: x\nenv:\n  A: b # why\n"))
                .isEmpty();
    }

    @Test
    void aCommentTheLibraryCannotPlaceIsARefusalNotACrash() {
        FormatOutcome outcome = PolicyFormat.format("p.yaml", "name: x\nenv: { # why\n  A: b}\n");
        assertThat(outcome).isInstanceOfSatisfying(FormatOutcome.Refused.class, r -> {
            assertThat(r.problems()).singleElement().extracting(Problem::code).isEqualTo("fmt-refused");
            assertThat(r.problems().get(0).help()).contains("move it to a line of its own");
        });
    }
}
