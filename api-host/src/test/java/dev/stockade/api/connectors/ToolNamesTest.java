package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Exposed tool names: the plain form, the 64-character limit, collisions, and stability. */
class ToolNamesTest {
    private static final UUID A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID B = UUID.fromString("00000000-0000-0000-0000-00000000000b");

    @Test
    void aShortNameIsConnectorAndToolWithCharactersOutsideTheSetReplaced() {
        assertThat(ToolNames.exposed(A, "github", "create_issue", Set.of())).isEqualTo("github__create_issue");
        assertThat(ToolNames.exposed(A, "github", "issues/create v2", Set.of())).isEqualTo("github__issues_create_v2");
    }

    @Test
    void aLongNameIsCutTo64WithAStableHashSuffix() {
        String tool = "a_really_long_tool_name_that_goes_on_and_on_and_on_beyond_any_limit";
        String name = ToolNames.exposed(A, "connector", tool, Set.of());
        assertThat(name).hasSize(ToolNames.MAX).matches("connector__a_really_long.*_[0-9a-f]{8}");
        assertThat(ToolNames.exposed(A, "connector", tool, Set.of())).isEqualTo(name); // stable
        assertThat(ToolNames.exposed(B, "connector", tool, Set.of())).isNotEqualTo(name); // per connector
    }

    @Test
    void aTakenNameGetsTheHashedFormAndNeverRepeats() {
        Set<String> taken = new HashSet<>();
        String first = ToolNames.exposed(A, "docs", "search", taken);
        taken.add(first);
        String second = ToolNames.exposed(B, "docs", "search", taken); // same connector name, another project
        taken.add(second);
        String third = ToolNames.exposed(B, "docs", "search.", taken);
        assertThat(first).isEqualTo("docs__search");
        assertThat(second).startsWith("docs__search_").hasSize("docs__search_".length() + 8);
        assertThat(Set.of(first, second, third)).hasSize(3);
        assertThat(taken).allMatch(n -> n.length() <= ToolNames.MAX && n.matches("[A-Za-z0-9_.-]+"));
    }
}
