package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
    /** Where the consoles of starts made ready wait for their sandbox; not a sandbox id, so never taken for one. */
    private static final String POOL = ".pool";
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

    /**
     * The console file of a start made ready for slot {@code slot} ({@code <root>/.pool/}, in the same file system as
     * the sandboxes' folders, so a sandbox's folder takes it by a rename while its launcher keeps writing to it).
     */
    static Path console(Path root, int slot) throws ProvisionException {
        Path file = root.resolve(POOL).resolve("slot-" + slot + ".log");
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            return Files.createFile(file);
        } catch (IOException e) {
            throw new ProvisionException("cannot prepare a sandbox's console file: " + e.getMessage());
        }
    }

    /** Moves a ready start's console into the sandbox's folder ({@code console.log}); its new path. */
    static Path takeConsole(Path console, Path dir) throws ProvisionException {
        try {
            return Files.move(console, dir.resolve("console.log"), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ProvisionException("cannot move the sandbox's console file: " + e.getMessage());
        }
    }

    /** Removes the console files of starts an earlier run made ready and never used. */
    static void clearConsoles(Path root) {
        try (Stream<Path> files = Files.list(root.resolve(POOL))) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // none, or unreadable: nothing to clear
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
