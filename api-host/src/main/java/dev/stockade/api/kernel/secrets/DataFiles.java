package dev.stockade.api.kernel.secrets;

import dev.stockade.api.kernel.config.PlatformConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** Files the installation keeps in its data directory; private ones are written 0600 and replaced atomically. */
public final class DataFiles {
    private DataFiles() {
    }

    public static Path dir(PlatformConfig config, String name) throws IOException {
        if (config.dataDir() == null) {
            throw new IllegalStateException("config.dataDir is not set");
        }
        Path dir = config.dataDir().resolve(name);
        Files.createDirectories(dir);
        return dir;
    }

    public static void writePrivate(Path file, String content) {
        try {
            Path tmp = Files.createTempFile(file.getParent(), ".tmp", "",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file, e);
        }
    }
}
