package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tar-slip guard of {@code sandbox copy} out of a sandbox: hostile archives (written here with Commons Compress,
 * as a sandbox could write them) are refused at the offending entry and nothing lands outside the destination.
 */
class ConfinedExtractionTest {
    @TempDir
    Path dir;

    /** One entry of a hand-made archive: a file (with data), a directory, a symbolic or a hard link. */
    private record Entry(String name, byte type, String data, String link, int mode) {
        static Entry file(String name, String data) {
            return new Entry(name, TarConstants.LF_NORMAL, data, null, 0644);
        }

        static Entry dir(String name) {
            return new Entry(name, TarConstants.LF_DIR, null, null, 0755);
        }

        static Entry symlink(String name, String target) {
            return new Entry(name, TarConstants.LF_SYMLINK, null, target, 0777);
        }

        static Entry hardLink(String name, String target) {
            return new Entry(name, TarConstants.LF_LINK, null, target, 0644);
        }
    }

    private static byte[] tar(Entry... entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Entry e : entries) {
                // preserveAbsolutePath: a hostile sandbox's archive keeps its leading slash and its `..`
                TarArchiveEntry t = new TarArchiveEntry(e.name(), e.type(), true);
                t.setMode(e.mode());
                byte[] data = e.data() == null ? new byte[0] : e.data().getBytes(StandardCharsets.UTF_8);
                if (e.link() != null) {
                    t.setLinkName(e.link());
                } else {
                    t.setSize(data.length);
                }
                tar.putArchiveEntry(t);
                tar.write(data);
                tar.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }

    private List<String> everything() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }

    private int extract(String top, byte[] archive) throws IOException {
        List<String> notes = new ArrayList<>();
        return new ConfinedExtraction(dir.resolve("dest").resolve("box"), top, notes::add)
                .extract(new ByteArrayInputStream(archive));
    }

    @Test
    void aWellFormedTreeLandsWithItsBytesModesAndInsideLinks() throws Exception {
        Files.createDirectory(dir.resolve("dest"));
        Entry run = new Entry("box/bin/run", TarConstants.LF_NORMAL, "#!/bin/sh\n", null, 0750);
        int n = extract("box", tar(Entry.dir("box/"), Entry.dir("box/bin/"), run, Entry.file("box/a.txt", "a"),
                Entry.symlink("box/bin/up", "../a.txt"), Entry.hardLink("box/b.txt", "box/a.txt"),
                new Entry("box/locked/", TarConstants.LF_DIR, null, null, 0500)));
        Path box = dir.resolve("dest/box");
        assertThat(n).isEqualTo(7);
        assertThat(Files.readString(box.resolve("bin/run"))).isEqualTo("#!/bin/sh\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(box.resolve("bin/run"))))
                .isEqualTo("rwxr-x---");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(box.resolve("locked"))))
                .isEqualTo("r-x------");
        assertThat(Files.readSymbolicLink(box.resolve("bin/up")).toString()).isEqualTo("../a.txt");
        assertThat(Files.readString(box.resolve("bin/up"))).isEqualTo("a");
        assertThat(Files.isSameFile(box.resolve("a.txt"), box.resolve("b.txt"))).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "../evil.txt | climbs out",
        "box/../../evil.txt | climbs out",
        "/tmp/evil.txt | absolute",
        "other/evil.txt | not under `box`",
    })
    void namesThatLeaveTheDestinationAreRefusedBeforeAnythingIsWritten(String name, String why) throws Exception {
        Files.createDirectory(dir.resolve("dest"));
        byte[] archive = tar(Entry.file(name, "pwned"));
        assertThatThrownBy(() -> extract("box", archive)).isInstanceOf(Failure.class)
                .hasMessageContaining(name).hasMessageContaining(why);
        assertThat(everything()).containsExactly("", "dest");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "box/etc | /etc | absolute path",
        "box/up | .. | outside the destination",
        "box/a/up | ../../.. | outside the destination",
        "box | . | outside the destination",
    })
    void linksThatPointOutAreRefused(String name, String target, String why) throws Exception {
        Files.createDirectory(dir.resolve("dest"));
        byte[] archive = tar(Entry.dir("box/"), Entry.symlink(name, target));
        assertThatThrownBy(() -> extract("box", archive)).isInstanceOf(Failure.class)
                .hasMessageContaining(name).hasMessageContaining(why);
        assertThat(everything()).allMatch(p -> p.isEmpty() || p.equals("dest") || p.equals("dest/box"));
    }

    @Test
    void aLinkThatReachesTheParentThroughAnotherLinkIsRefused() throws Exception {
        Files.createDirectory(dir.resolve("dest"));
        // `here -> .` is harmless alone; `y -> here/..` lexically stays inside but really is dest/, then y/evil
        byte[] archive = tar(Entry.dir("box/"), Entry.symlink("box/here", "."), Entry.symlink("box/y", "here/.."),
                Entry.file("box/y/evil.txt", "pwned"));
        assertThatThrownBy(() -> extract("box", archive)).isInstanceOf(Failure.class)
                .hasMessageContaining("box/y").hasMessageContaining("climbs after a name");
        assertThat(dir.resolve("dest/evil.txt")).doesNotExist();
    }

    @Test
    void nothingIsWrittenThroughALinkEvenOneThatPointsInside() throws Exception {
        Files.createDirectories(dir.resolve("dest"));
        byte[] archive = tar(Entry.dir("box/"), Entry.dir("box/sub/"), Entry.symlink("box/l", "sub"),
                Entry.file("box/l/f.txt", "through"));
        assertThatThrownBy(() -> extract("box", archive)).isInstanceOf(Failure.class)
                .hasMessageContaining("box/l/f.txt").hasMessageContaining("symbolic link");
        assertThat(dir.resolve("dest/box/sub/f.txt")).doesNotExist();
    }

    @Test
    void aLinkAlreadyInTheDestinationIsReplacedNeverFollowed() throws Exception {
        Path outside = Files.writeString(dir.resolve("outside.txt"), "mine");
        Files.createDirectories(dir.resolve("dest/box"));
        Files.createSymbolicLink(dir.resolve("dest/box/a.txt"), outside);
        extract("box", tar(Entry.dir("box/"), Entry.file("box/a.txt", "theirs")));
        assertThat(Files.readString(outside)).isEqualTo("mine");
        assertThat(Files.isSymbolicLink(dir.resolve("dest/box/a.txt"))).isFalse();
        assertThat(Files.readString(dir.resolve("dest/box/a.txt"))).isEqualTo("theirs");
    }

    @Test
    void hardLinksOnlyToFilesThisCopyWrote() throws Exception {
        Files.createDirectory(dir.resolve("dest"));
        Path secret = Files.writeString(dir.resolve("secret.txt"), "secret");
        assertThatThrownBy(() -> extract("box", tar(Entry.dir("box/"), Entry.hardLink("box/s", "../secret.txt"))))
                .isInstanceOf(Failure.class).hasMessageContaining("climbs out");
        assertThatThrownBy(() -> extract("box", tar(Entry.dir("box/"), Entry.hardLink("box/s", "box/never"))))
                .isInstanceOf(Failure.class).hasMessageContaining("did not write");
        assertThat(Files.readString(secret)).isEqualTo("secret");
        assertThat(dir.resolve("dest/box/s")).doesNotExist();
    }

    @Test
    void aFileNeverReplacesADirectory() throws Exception {
        Files.createDirectories(dir.resolve("dest/box/keep"));
        Files.writeString(dir.resolve("dest/box/keep/x"), "x");
        assertThatThrownBy(() -> extract("box", tar(Entry.file("box/keep", "flat")))).isInstanceOf(Failure.class)
                .hasMessageContaining("replace the directory");
        assertThat(dir.resolve("dest/box/keep/x")).hasContent("x");
    }

    @ParameterizedTest(name = "{1} at depth {0}: {2}")
    @CsvSource(delimiter = '|', value = {
        "1 | x | true",
        "1 | ./x/y | true",
        "1 | .. | false",
        "2 | .. | true",
        "2 | ../.. | false",
        "3 | ../../x/y | true",
        "3 | ../x/../.. | false",
        "0 | x | false",
    })
    void linkTargetsClimbNoHigherThanTheTop(int depth, String target, boolean allowed) {
        List<String> rel = new ArrayList<>();
        for (int i = 0; i < depth; i++) {
            rel.add("d" + i);
        }
        if (allowed) {
            ConfinedExtraction.checkLinkTarget("entry", rel, target);
        } else {
            assertThatThrownBy(() -> ConfinedExtraction.checkLinkTarget("entry", rel, target))
                    .isInstanceOf(Failure.class);
        }
    }

    @Test
    void namesAreSplitWithoutDotsAndEmptyParts() {
        assertThat(ConfinedExtraction.components("./box//a/./b/")).containsExactly("box", "a", "b");
        assertThat(ConfinedExtraction.components("./")).isEmpty();
        assertThat(ConfinedExtraction.relative("box/a", List.of("box", "a"), "box")).containsExactly("a");
        assertThat(ConfinedExtraction.relative("a", List.of("a"), null)).containsExactly("a");
    }
}
