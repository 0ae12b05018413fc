package dev.stockade.cli.rest;

import dev.stockade.policy.text.Quoted;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * The tar stream {@code sandbox copy} sends into a sandbox: a local file or tree with its permission bits and
 * modification times, symbolic links as links (never followed, so a link to a secret outside the tree sends the
 * link, not the secret), POSIX long names. Owners are left out: the sandbox's user owns what it unpacks.
 */
final class TarPacking {
    private TarPacking() {
    }

    /**
     * Writes {@code source} to {@code out} as a tar stream whose entries are named {@code top} and {@code top/...}
     * ({@code top} null: the directory's contents, named relative to it); other file kinds are skipped with a note.
     * The number of entries written.
     */
    static int pack(Path source, String top, OutputStream out, Consumer<String> notes) throws IOException {
        TarArchiveOutputStream tar = new TarArchiveOutputStream(out);
        int[] entries = {0};
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        tar.setAddPaxHeadersForNonAsciiNames(true);
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                String name = name(source, dir, top);
                if (!name.isEmpty()) {
                    write(tar, entry(dir, name + "/", TarConstants.LF_DIR, attrs), null, entries);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                String name = name(source, file, top);
                if (attrs.isSymbolicLink()) {
                    TarArchiveEntry e = entry(file, name, TarConstants.LF_SYMLINK, attrs);
                    e.setLinkName(Files.readSymbolicLink(file).toString());
                    write(tar, e, null, entries);
                } else if (attrs.isRegularFile()) {
                    TarArchiveEntry e = entry(file, name, TarConstants.LF_NORMAL, attrs);
                    e.setSize(attrs.size());
                    write(tar, e, file, entries);
                } else {
                    notes.accept("skipped " + Quoted.input(file.toString(), Text::safe)
                            + ": not a file, directory or link");
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                throw Failure.usage("cannot read " + Quoted.input(file.toString(), Text::safe) + ": "
                        + e.getClass().getSimpleName());
            }
        });
        tar.finish();
        tar.flush();
        return entries[0];
    }

    private static String name(Path source, Path p, String top) {
        String rel = source.relativize(p).toString();
        if (top == null) {
            return rel;
        }
        return rel.isEmpty() ? top : top + "/" + rel;
    }

    private static TarArchiveEntry entry(Path p, String name, byte type, BasicFileAttributes attrs)
            throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name, type);
        e.setMode(mode(p, type));
        e.setModTime(attrs.lastModifiedTime());
        return e;
    }

    private static void write(TarArchiveOutputStream tar, TarArchiveEntry e, Path data, int[] entries)
            throws IOException {
        entries[0]++;
        tar.putArchiveEntry(e);
        if (data != null) {
            Files.copy(data, tar);
        }
        tar.closeArchiveEntry();
    }

    /** The tar mode of a file kind plus its permission bits, read without following a link. */
    private static int mode(Path p, byte type) throws IOException {
        int kind = type == TarConstants.LF_DIR ? 0040000 : type == TarConstants.LF_SYMLINK ? 0120000 : 0100000;
        if (type == TarConstants.LF_SYMLINK) {
            return kind | 0777;
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
        return kind | perms.stream().mapToInt(TarPacking::bit).sum();
    }

    private static int bit(PosixFilePermission p) {
        return switch (p) {
            case OWNER_READ -> 0400;
            case OWNER_WRITE -> 0200;
            case OWNER_EXECUTE -> 0100;
            case GROUP_READ -> 040;
            case GROUP_WRITE -> 020;
            case GROUP_EXECUTE -> 010;
            case OTHERS_READ -> 04;
            case OTHERS_WRITE -> 02;
            case OTHERS_EXECUTE -> 01;
        };
    }
}
