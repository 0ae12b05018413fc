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

    /**
     * The value under {@code key} of the secret {@code name}: the file {@code <dataDir>/secrets/<name>/<key>}, the
     * layout of a mounted Kubernetes secret, trimmed. A name or key that leaves the secrets directory, or a missing
     * file, is an {@link IllegalStateException} naming the secret (never its value).
     */
    public static String secret(PlatformConfig config, String name, String key) {
        try {
            Path root = dir(config, "secrets");
            Path file = root.resolve(name).resolve(key).normalize();
            if (!file.startsWith(root) || file.equals(root)) {
                throw new IllegalStateException("the secret name `" + name + "` leaves the secrets directory");
            }
            return Files.readString(file).trim();
        } catch (IOException e) {
            throw new IllegalStateException("the secret `" + name + "` has no readable key `" + key + "` under "
                    + config.dataDir().resolve("secrets"));
        }
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
