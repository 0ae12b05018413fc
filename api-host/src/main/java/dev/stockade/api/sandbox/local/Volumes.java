package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The sandboxes' folders in the data directory ({@code <data-dir>/sandboxes/<id>/}: the volume mounted at
 * {@code /workspace}, the proxy's CA, the console log). They belong to the one platform of that data directory, so a
 * folder whose sandbox the database no longer knows is that platform's to remove.
 */
final class Volumes {
    private static final Pattern ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private Volumes() {
    }

    /** Makes the sandbox's folder and volume and writes the CA it trusts; returns the folder. */
    static Path prepare(Path root, String id, String caPem) throws ProvisionException {
        Path dir = root.resolve(id);
        try {
            Files.createDirectories(dir.resolve("volume"));
            Files.writeString(dir.resolve("ca.pem"), caPem == null ? "" : caPem);
            return dir;
        } catch (IOException e) {
            throw new ProvisionException("cannot prepare the sandbox's volume: " + e.getMessage());
        }
    }

    /** Removes the sandbox's folder; false when some of it could not be removed. */
    static boolean delete(Path root, String id) {
        Path dir = root.resolve(id);
        if (!Files.exists(dir)) {
            return true;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The sandbox ids that have a folder here. */
    static List<String> ids(Path root) {
        List<String> ids = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return ids;
        }
        try (Stream<Path> dirs = Files.list(root)) {
            dirs.map(p -> p.getFileName().toString()).filter(n -> ID.matcher(n).matches()).forEach(ids::add);
        } catch (IOException e) {
            // unreadable: nothing to reclaim this time
        }
        return ids;
    }
}
