package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which side of {@code sandbox copy} is remote, and where a copied tree lands locally ({@code docker cp}'s rules). */
class SandboxCopyPathsTest {
    private static final String ID = "0b4f8a52-2f63-4c4e-9d6b-2f1b5a7c9e01";

    @TempDir
    Path dir;

    @Test
    void onlyAUuidBeforeTheFirstColonMakesAPathRemote() {
        assertThat(SandboxPath.parse(ID + ":/workspace/a")).isEqualTo(new SandboxPath(ID, "/workspace/a"));
        assertThat(SandboxPath.parse(ID + ":out")).isEqualTo(new SandboxPath(ID, "out"));
        assertThat(SandboxPath.parse("./" + ID + ":a")).isNull();
        assertThat(SandboxPath.parse("notes:today.txt")).isNull();
        assertThat(SandboxPath.parse("/tmp/a")).isNull();
        assertThat(SandboxPath.parse("0b4f8a52-2f63-4c4e-9d6b-2f1b5a7c9e0z:a")).isNull();
        assertThatThrownBy(() -> SandboxPath.parse(ID + ":")).isInstanceOf(Failure.class)
                .hasMessageContaining("names no path");
    }

    @Test
    void aTrailingDotAsksForTheContents() {
        assertThat(new SandboxPath(ID, "build/.").contentsOnly()).isTrue();
        assertThat(new SandboxPath(ID, ".").contentsOnly()).isTrue();
        assertThat(new SandboxPath(ID, "build").contentsOnly()).isFalse();
        assertThat(new SandboxPath(ID, "a.").contentsOnly()).isFalse();
    }

    @Test
    void sandboxPathsSplitIntoDirectoryAndName() {
        assertThat(SandboxCopyCommand.split("/workspace/out/")).containsExactly("/workspace", "out");
        assertThat(SandboxCopyCommand.split("out")).containsExactly(".", "out");
        assertThat(SandboxCopyCommand.split("/out")).containsExactly("/", "out");
        assertThat(SandboxCopyCommand.split("-rf")).containsExactly(".", "-rf");
    }

    @Test
    void aTreeLandsInsideAnExistingDirectoryElseAtTheDestinationItself() throws Exception {
        Path existing = Files.createDirectory(dir.resolve("existing"));
        Path file = Files.writeString(dir.resolve("file.txt"), "x");
        assertThat(SandboxCopyCommand.localTarget(existing.toString(), "tree", true))
                .isEqualTo(existing.resolve("tree"));
        assertThat(SandboxCopyCommand.localTarget(existing.toString(), null, true)).isEqualTo(existing);
        assertThat(SandboxCopyCommand.localTarget(dir + "/fresh", "tree", true))
                .isEqualTo(dir.resolve("fresh"));
        assertThat(SandboxCopyCommand.localTarget(file.toString(), "a.txt", false)).isEqualTo(file);
        assertThatThrownBy(() -> SandboxCopyCommand.localTarget(file.toString(), "tree", true))
                .isInstanceOf(Failure.class).hasMessageContaining("over the file");
        assertThatThrownBy(() -> SandboxCopyCommand.localTarget(dir + "/no/such", "tree", true))
                .isInstanceOf(Failure.class).hasMessageContaining("does not exist");
        // a trailing slash asks for a directory that exists
        assertThatThrownBy(() -> SandboxCopyCommand.localTarget(dir + "/fresh/", "tree", true))
                .isInstanceOf(Failure.class).hasMessageContaining("does not exist");
    }
}
