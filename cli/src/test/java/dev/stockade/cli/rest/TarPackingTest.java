package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A local tree packed for the sandbox and unpacked by the guarded extraction comes back byte for byte. */
class TarPackingTest {
    @TempDir
    Path dir;

    @Test
    void packedTreesKeepBytesModesTimesAndLinksAndSendNothingALinkPointsTo() throws Exception {
        Files.createDirectories(dir.resolve("src/nested/deeper"));
        Path src = dir.resolve("src");
        byte[] binary = new byte[300_000];
        new Random(7).nextBytes(binary);
        Files.write(src.resolve("nested/blob.bin"), binary);
        Path tool = Files.writeString(src.resolve("tool.sh"), "#!/bin/sh\necho ok\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-x--x"));
        Path secret = Files.writeString(dir.resolve("secret.txt"), "not to be sent");
        Files.createSymbolicLink(src.resolve("nested/out"), secret);
        Files.setLastModifiedTime(tool, FileTime.from(Instant.parse("2024-02-03T04:05:06Z")));
        String longName = "n".repeat(120);
        Files.writeString(src.resolve("nested/deeper").resolve(longName), "long");

        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        List<String> notes = new ArrayList<>();
        TarPacking.pack(src, "copy", tar, notes::add);
        assertThat(tar.toString(java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("not to be sent");
        try (TarArchiveInputStream in = new TarArchiveInputStream(new ByteArrayInputStream(tar.toByteArray()))) {
            TarArchiveEntry e;
            while ((e = in.getNextEntry()) != null && !e.getName().equals("copy/nested/out")) {
                assertThat(e.getName()).startsWith("copy");
            }
            assertThat(e).as("the link's entry").isNotNull();
            assertThat(e.isSymbolicLink()).isTrue();
            assertThat(e.getLinkName()).isEqualTo(secret.toString());
        }

        Files.createDirectory(dir.resolve("back"));
        Path back = dir.resolve("back/copy");
        // the link points outside, so the guard refuses it: pack everything but the link to see the rest come back
        Files.delete(src.resolve("nested/out"));
        tar.reset();
        TarPacking.pack(src, "copy", tar, notes::add);
        int entries = new ConfinedExtraction(back, "copy", notes::add)
                .extract(new ByteArrayInputStream(tar.toByteArray()));
        assertThat(entries).isEqualTo(6); // 3 directories, 3 files
        assertThat(Files.readAllBytes(back.resolve("nested/blob.bin"))).isEqualTo(binary);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(back.resolve("tool.sh"))))
                .isEqualTo("rwxr-x--x");
        assertThat(Files.getLastModifiedTime(back.resolve("tool.sh")).toInstant())
                .isEqualTo(Instant.parse("2024-02-03T04:05:06Z"));
        assertThat(back.resolve("nested/deeper").resolve(longName)).hasContent("long");
        assertThat(notes).isEmpty();
    }

    @Test
    void contentsWithoutATopNameUnpackIntoTheDestinationItself() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("a.txt"), "a");
        Files.createSymbolicLink(src.resolve("link"), Path.of("a.txt"));
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        TarPacking.pack(src, null, tar, n -> { });
        Path dest = Files.createDirectory(dir.resolve("dest"));
        new ConfinedExtraction(dest, null, n -> { }).extract(new ByteArrayInputStream(tar.toByteArray()));
        assertThat(dest.resolve("a.txt")).hasContent("a");
        assertThat(Files.readSymbolicLink(dest.resolve("link"))).isEqualTo(Path.of("a.txt"));
    }
}
