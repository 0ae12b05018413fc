package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The proxy reads its policy files through the core's bounded reader: hostile files deny, never crash. */
class PolicySourceBoundedReadTest {
    @TempDir
    Path dir;

    private PolicySource.Load load(Path policy) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PolicySource source = PolicySource.load(List.of(policy), List.of(),
                new PrintStream(log, true, StandardCharsets.UTF_8));
        assertThat(log.toString(StandardCharsets.UTF_8)).doesNotContain("Exception").doesNotContain("\tat ");
        return source.lastLoad();
    }

    @Test
    void aHugeSparsePolicyFileIsRefusedBeforeItIsRead() throws Exception {
        Path huge = dir.resolve("p.yaml");
        try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(3L << 30);
        }
        PolicySource.Load load = load(huge);
        assertThat(load.valid()).isFalse();
        assertThat(load.problems()).anySatisfy(p -> assertThat(p).contains("over the limit of 1048576 bytes"));
    }

    @Test
    void aPolicyFileLinkedToDevZeroIsRefused() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("p.yaml"), Path.of("/dev/zero"));
        PolicySource.Load load = load(link);
        assertThat(load.valid()).isFalse();
        assertThat(load.problems()).anySatisfy(p -> assertThat(p).contains("not a regular file"));
    }
}
