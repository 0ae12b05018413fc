package dev.stockade.cli.rest;

import dev.stockade.policy.text.Quoted;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Unpacks a tar stream that came out of a sandbox into one local tree, and refuses every entry that would put or
 * point anything outside it: the tar-slip of kubectl cp (CVE-2019-1002101) is a sandbox that answers with
 * {@code ../} names, absolute names, or a link out followed by a file written through it. The sandbox is the party
 * this guards against, so nothing in the stream is trusted: names are checked before any file is touched, nothing
 * is ever written through a symbolic link, and a link's target must stay inside the tree as written.
 */
final class ConfinedExtraction {
    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    private final Path target;
    private final String top;
    private final Consumer<String> notes;
    private final Set<Path> written = new HashSet<>();
    private final List<Directory> directories = new ArrayList<>();
    private int entries;

    /** A directory's mode and time, set once its contents are in (a read-only one would refuse them). */
    private record Directory(Path path, int mode, FileTime modified) {
    }

    /**
     * Extracts into {@code target} (the copied file or directory itself); every entry's first name component must be
     * {@code top}, which maps to {@code target}, or, with {@code top} null, entries are relative to {@code target}.
     */
    ConfinedExtraction(Path target, String top, Consumer<String> notes) {
        this.target = target.toAbsolutePath().normalize();
        this.top = top;
        this.notes = notes;
    }

    /** Reads {@code tar} to its end-of-archive; the number of entries written. A refusal is a {@link Failure}. */
    int extract(InputStream tar) throws IOException {
        TarArchiveInputStream in = new TarArchiveInputStream(tar);
        TarArchiveEntry e;
        while ((e = in.getNextEntry()) != null) {
            place(e, in);
        }
        directories.sort(Comparator.comparingInt((Directory d) -> d.path().getNameCount()).reversed());
        for (Directory d : directories) {
            Files.setPosixFilePermissions(d.path(), permissions(d.mode()));
            Files.setLastModifiedTime(d.path(), d.modified());
        }
        return entries;
    }

    private void place(TarArchiveEntry e, InputStream data) throws IOException {
        String name = e.getName();
        List<String> rel = relative(name, components(name), top);
        if (e.isSymbolicLink()) {
            checkLinkTarget(name, rel, e.getLinkName());
        }
        Path dest = parentsOf(name, rel);
        if (e.isDirectory()) {
            directory(dest, e);
        } else if (e.isSymbolicLink()) {
            replaceable(name, dest);
            Files.createSymbolicLink(dest, Path.of(e.getLinkName()));
        } else if (e.isLink()) {
            hardLink(name, dest, e.getLinkName());
        } else if (e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO() || !e.isFile()) {
            notes.accept("skipped " + Quoted.input(name, Text::safe) + ": not a file, directory or link");
            return;
        } else {
            replaceable(name, dest);
            try (OutputStream out = Files.newOutputStream(dest, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                data.transferTo(out);
            }
            Files.setPosixFilePermissions(dest, permissions(e.getMode()));
            Files.setLastModifiedTime(dest, e.getLastModifiedTime());
            written.add(dest);
        }
        entries++;
    }

    /**
     * The name components of an entry: refused when absolute or when any component is {@code ..}; empty and
     * {@code .} components are dropped ({@code ./a//b} is {@code [a, b]}).
     */
    static List<String> components(String name) {
        if (name.isEmpty() || name.indexOf('\0') >= 0) {
            throw refused(name, "the name is empty or holds a NUL");
        }
        if (name.startsWith("/")) {
            throw refused(name, "the name is absolute");
        }
        List<String> out = new ArrayList<>();
        for (String c : name.split("/")) {
            if (c.equals("..")) {
                throw refused(name, "the name climbs out with `..`");
            }
            if (!c.isEmpty() && !c.equals(".")) {
                out.add(c);
            }
        }
        return out;
    }

    /** The components below the copied tree's top: the first must be {@code top} (null: no such prefix). */
    static List<String> relative(String name, List<String> components, String top) {
        if (top == null) {
            return components;
        }
        if (components.isEmpty() || !components.get(0).equals(top)) {
            throw refused(name, "it is not under " + Quoted.input(top, Text::safe) + ", the path asked for");
        }
        return components.subList(1, components.size());
    }

    /**
     * A symbolic link at {@code rel} (below the top) may point only inside the tree: a relative target that climbs
     * with leading {@code ..} no higher than the tree's top, then only descends. A {@code ..} after a name is refused
     * too, since that name may itself be a link ({@code x -> .}, {@code y -> x/..} reaches the parent).
     */
    static void checkLinkTarget(String name, List<String> rel, String linkTarget) {
        if (linkTarget == null || linkTarget.isEmpty() || linkTarget.indexOf('\0') >= 0) {
            throw refused(name, "its link target is empty");
        }
        if (linkTarget.startsWith("/")) {
            throw refused(name, "it links to the absolute path " + Quoted.input(linkTarget, Text::safe));
        }
        int climbs = 0;
        boolean descended = false;
        for (String c : linkTarget.split("/")) {
            if (c.equals("..")) {
                if (descended) {
                    throw refused(name, "its link target " + Quoted.input(linkTarget, Text::safe)
                            + " climbs after a name, which may leave the destination");
                }
                climbs++;
            } else if (!c.isEmpty() && !c.equals(".")) {
                descended = true;
            }
        }
        // the link's directory is rel.size() - 1 levels below the top; the top itself is no directory of the tree
        if (climbs > rel.size() - 1) {
            throw refused(name, "it links to " + Quoted.input(linkTarget, Text::safe) + ", outside the destination");
        }
    }

    /** The entry's local path, after making sure every directory above it is a real directory (never a link). */
    private Path parentsOf(String name, List<String> rel) throws IOException {
        Path p = target;
        for (String c : rel) {
            realDirectory(name, p);
            try {
                p = p.resolve(c);
            } catch (InvalidPathException e) {
                throw refused(name, "the name is not a valid local path");
            }
        }
        return p;
    }

    private static void realDirectory(String name, Path dir) throws IOException {
        if (Files.isSymbolicLink(dir)) {
            throw refused(name, "it would be written through the symbolic link " + Quoted.input(dir.toString(),
                    Text::safe));
        }
        if (!Files.exists(dir, NOFOLLOW)) {
            Files.createDirectory(dir);
        } else if (!Files.isDirectory(dir, NOFOLLOW)) {
            throw refused(name, Quoted.input(dir.toString(), Text::safe) + " is not a directory");
        }
    }

    private void directory(Path dest, TarArchiveEntry e) throws IOException {
        if (!Files.isDirectory(dest, NOFOLLOW)) {
            Files.deleteIfExists(dest); // a file or a link where the directory goes: replaced, never followed
            Files.createDirectory(dest);
        }
        directories.add(new Directory(dest, e.getMode(), e.getLastModifiedTime()));
    }

    /** A file or link may replace a file or link, never a directory (its contents would silently go). */
    private static void replaceable(String name, Path dest) throws IOException {
        if (Files.isDirectory(dest, NOFOLLOW)) {
            throw refused(name, "it would replace the directory " + Quoted.input(dest.toString(), Text::safe));
        }
        Files.deleteIfExists(dest);
    }

    private void hardLink(String name, Path dest, String linkName) throws IOException {
        List<String> rel = relative(name, components(linkName), top);
        Path source = target;
        for (String c : rel) {
            source = source.resolve(c);
        }
        if (!written.contains(source) || !Files.isRegularFile(source, NOFOLLOW)) {
            throw refused(name, "it is a hard link to " + Quoted.input(linkName, Text::safe)
                    + ", a file this copy did not write");
        }
        replaceable(name, dest);
        try {
            Files.createLink(dest, source);
        } catch (FileAlreadyExistsException e) {
            throw refused(name, "it appeared while being written");
        }
        written.add(dest);
    }

    /** The permission bits of a tar mode; set-id and sticky bits are dropped (docs/semantics.md). */
    static Set<PosixFilePermission> permissions(int mode) {
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_READ};
        Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
        for (int bit = 0; bit < order.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                out.add(order[bit]);
            }
        }
        return out;
    }

    private static Failure refused(String entry, String why) {
        return Failure.usage("refused the entry " + Quoted.input(entry, Text::safe) + " from the sandbox: " + why
                + "; nothing was written outside the destination");
    }
}
