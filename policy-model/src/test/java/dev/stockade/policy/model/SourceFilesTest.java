package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one bounded reader: what is not a regular file or is too large is refused before it is read. */
class SourceFilesTest {
    @TempDir
    Path dir;

    private static SourceFiles.Unreadable unreadable(Path path) {
        SourceFiles.Loaded loaded = SourceFiles.read(path);
        assertThat(loaded).isInstanceOf(SourceFiles.Unreadable.class);
        return (SourceFiles.Unreadable) loaded;
    }

    @Test
    void readsAUtf8File() throws IOException {
        Path file = Files.writeString(dir.resolve("p.yaml"), "name: bücher\n");
        assertThat(SourceFiles.read(file)).isEqualTo(new SourceFiles.Text(file.toString(), "name: bücher\n"));
    }

    @Test
    void aMissingFileSaysSo() {
        assertThat(unreadable(dir.resolve("nope.yaml")).message()).endsWith("nope.yaml: no such file");
    }

    @Test
    void aFolderIsRefused() {
        assertThat(unreadable(dir).reason()).contains("folder");
    }

    @Test
    void aDeviceBehindASymlinkIsRefusedBeforeReading() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("zero.yaml"), Path.of("/dev/zero"));
        assertThat(unreadable(link).reason()).contains("not a regular file");
        assertThat(unreadable(Path.of("/dev/urandom")).reason()).contains("not a regular file");
    }

    @Test
    void aPipeIsRefusedWithoutOpeningIt() throws Exception {
        Path fifo = dir.resolve("fifo.yaml");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        // Opening a pipe with no writer would block forever; the reader must refuse it from its attributes.
        assertThat(unreadable(fifo).reason()).contains("not a regular file");
    }

    @Test
    void aSparseHugeFileIsRefusedFromItsSize() throws IOException {
        Path sparse = dir.resolve("sparse.yaml");
        try (RandomAccessFile f = new RandomAccessFile(sparse.toFile(), "rw")) {
            f.setLength(3L << 30);
        }
        assertThat(unreadable(sparse).reason()).contains("3221225472 bytes").contains("limit of 1048576");
    }

    @Test
    void theLimitIsExactlyOneMebibyte() throws IOException {
        Path at = Files.write(dir.resolve("at.yaml"), "a".repeat(SourceFiles.MAX_BYTES).getBytes());
        assertThat(SourceFiles.read(at)).isInstanceOf(SourceFiles.Text.class);
        Path over = Files.write(dir.resolve("over.yaml"), "a".repeat(SourceFiles.MAX_BYTES + 1).getBytes());
        assertThat(unreadable(over).reason()).contains("1048577 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ff", "c0af", "e0808f", "eda080", "f4908080", "c3", "e282"})
    void invalidUtf8IsPlacedAtItsLineAndColumn(String hex) throws IOException {
        byte[] bad = java.util.HexFormat.of().parseHex(hex);
        byte[] head = "name: p\ndescription: ab".getBytes();
        byte[] all = new byte[head.length + bad.length + 1];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(bad, 0, all, head.length, bad.length);
        all[all.length - 1] = '\n';
        SourceFiles.Unreadable u = unreadable(Files.write(dir.resolve("bad.yaml"), all));
        assertThat(u.line()).isEqualTo(2);
        assertThat(u.column()).isEqualTo(16);
        assertThat(u.reason()).startsWith("invalid UTF-8 (byte 0x" + hex.substring(0, 2))
                .contains("byte offset " + head.length).doesNotContain("Input length");
        assertThat(u.message()).contains("bad.yaml:2:16: invalid UTF-8");
    }

    @Test
    void columnsCountCharactersNotBytes() throws IOException {
        byte[] text = "a: 😀é\u00ff".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] all = java.util.Arrays.copyOf(text, text.length + 1);
        all[text.length] = (byte) 0xfe;
        SourceFiles.Unreadable u = unreadable(Files.write(dir.resolve("c.yaml"), all));
        assertThat(u.line()).isEqualTo(1);
        assertThat(u.column()).isEqualTo(7);
    }
}
