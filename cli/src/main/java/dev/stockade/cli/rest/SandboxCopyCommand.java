package dev.stockade.cli.rest;

import dev.stockade.cli.rest.TarTransfer.RemoteKind;
import dev.stockade.policy.text.Quoted;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code stockade sandbox copy SRC DST}: files and directories into and out of a running sandbox over the exec
 * socket and tar, with {@code docker cp}'s rules for where they land (docs/cli.md). What comes out of a sandbox is
 * unpacked by {@link ConfinedExtraction}, which refuses anything that would land or point outside the destination.
 */
@Command(name = "copy", mixinStandardHelpOptions = true, description = "Copy files and directories into or out of a"
        + " running sandbox (needs tar in the sandbox). One side is SANDBOX_ID:PATH (relative to /workspace), the"
        + " other a local path; `-` is a tar stream on standard input (SRC) or output (DST). DIR/. copies a"
        + " directory's contents.")
public final class SandboxCopyCommand implements Callable<Integer> {
    @ParentCommand
    SandboxCommand sandbox;

    @Parameters(index = "0", paramLabel = "SRC", description = "SANDBOX_ID:PATH, a local path, or - (a tar stream).")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "SANDBOX_ID:PATH, a local path, or - (a tar stream).")
    String destination;

    @Mixin
    ApiOptions api;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        SandboxPath from = SandboxPath.parse(source);
        SandboxPath to = SandboxPath.parse(destination);
        return api.call((client, out) -> {
            if ((from == null) == (to == null)) {
                throw Failure.usage(from == null ? "one side must be in a sandbox: SANDBOX_ID:PATH"
                        : "copy between two sandboxes goes through this machine: copy out, then in");
            }
            CopyProgress progress = CopyProgress.onTerminal(spec.commandLine().getErr());
            try {
                if (from != null && destination.equals("-")) {
                    copyOutAsTar(new TarTransfer(client, sandbox.one(from.sandboxId())), from, progress);
                } else if (to != null) {
                    copyIn(new TarTransfer(client, sandbox.one(to.sandboxId())), to, progress, out);
                } else {
                    copyOut(new TarTransfer(client, sandbox.one(from.sandboxId())), from, destination, progress,
                            out);
                }
            } catch (IOException e) {
                throw Failure.usage("the copy failed: " + Text.safe(e.getClass().getSimpleName() + ": "
                        + e.getMessage()));
            } finally {
                progress.finish();
            }
        });
    }

    private void copyIn(TarTransfer transfer, SandboxPath to, CopyProgress progress, Output out) throws IOException {
        boolean stdin = source.equals("-");
        Path local = stdin ? null : Path.of(source).toAbsolutePath().normalize();
        if (!stdin && !Files.exists(local, LinkOption.NOFOLLOW_LINKS)) {
            throw Failure.usage(Quoted.input(source, Text::safe) + " does not exist");
        }
        boolean contents = !stdin && (source.equals(".") || source.endsWith("/."));
        boolean directory = !stdin && Files.isDirectory(local, LinkOption.NOFOLLOW_LINKS);
        if (contents && !directory) {
            throw Failure.usage(Quoted.input(source, Text::safe) + " is not a directory, so it has no contents to"
                    + " copy");
        }
        RemoteKind kind = usable(transfer.probe(to.path()), to);
        if (kind == RemoteKind.NO_PARENT) {
            throw Failure.usage("the directory of " + Quoted.input(to.toString(), Text::safe)
                    + " does not exist in the sandbox");
        }
        String[] split = split(to.path());
        String into;
        String top;
        if (kind == RemoteKind.DIRECTORY) {
            into = to.path();
            top = contents || stdin ? null : name(local, source);
        } else if (stdin) {
            throw Failure.usage("a tar stream from standard input unpacks into a directory; "
                    + Quoted.input(to.toString(), Text::safe) + " is none");
        } else if (kind == RemoteKind.FILE && directory) {
            throw Failure.usage("cannot copy the directory " + Quoted.input(source, Text::safe) + " over the file "
                    + Quoted.input(to.toString(), Text::safe));
        } else {
            into = split[0];
            top = split[1];
        }
        List<String> untar = List.of("sh", "-c", "umask 0 && exec tar -x -o -f - -C \"$1\"", "sh", into);
        int[] entries = {0};
        TarTransfer.Packer packer = stdin ? tar -> api.in().transferTo(tar)
                : tar -> entries[0] = TarPacking.pack(local, top, tar, out::note);
        transfer.send(untar, packer, progress);
        progress.finish();
        out.done("copied " + (stdin ? "the tar stream on standard input" : source) + " to " + to + " ("
                + (stdin ? "" : count(entries[0]) + ", ") + CopyProgress.size(progress.bytes()) + " of tar)");
    }

    private void copyOut(TarTransfer transfer, SandboxPath from, String dest, CopyProgress progress, Output out)
            throws IOException {
        RemoteKind kind = source(transfer, from);
        boolean contents = from.contentsOnly();
        String[] split = split(from.path());
        Path target = localTarget(dest, contents ? null : split[1], kind == RemoteKind.DIRECTORY);
        int entries = transfer.receive(tarCreate(from, split), new ConfinedExtraction(target, contents ? null
                : split[1], out::note), progress);
        progress.finish();
        out.done("copied " + from + " to " + target + " (" + count(entries) + ", "
                + CopyProgress.size(progress.bytes()) + " of tar)");
    }

    /** {@code DST -}: the sandbox's tar stream as it is, on standard output (nothing unpacked, so nothing checked). */
    private void copyOutAsTar(TarTransfer transfer, SandboxPath from, CopyProgress progress) throws IOException {
        java.io.OutputStream bytes = api.bytesOut();
        if (bytes == null) {
            throw Failure.usage("this standard output takes text only: copy to a local directory instead of `-`");
        }
        source(transfer, from);
        transfer.stream(tarCreate(from, split(from.path())), progress.counting(bytes));
        progress.finish();
    }

    /** What is at the sandbox path copied out: it must exist, and be a directory for {@code DIR/.}. */
    private static RemoteKind source(TarTransfer transfer, SandboxPath from) {
        RemoteKind kind = usable(transfer.probe(from.path()), from);
        if (kind == RemoteKind.ABSENT || kind == RemoteKind.NO_PARENT) {
            throw Failure.usage(Quoted.input(from.toString(), Text::safe) + " does not exist in the sandbox");
        }
        if (from.contentsOnly() && kind != RemoteKind.DIRECTORY) {
            throw Failure.usage(Quoted.input(from.toString(), Text::safe) + " is not a directory in the sandbox");
        }
        return kind;
    }

    /** {@code tar -c} of the path's last name in its directory, or of {@code .} in it for {@code DIR/.}. */
    private static List<String> tarCreate(SandboxPath from, String[] split) {
        if (from.contentsOnly()) {
            return List.of("tar", "-c", "-f", "-", "-C", from.path(), ".");
        }
        if (split[1].equals("..") || split[1].isEmpty()) {
            throw Failure.usage("name the directory to copy out of the sandbox, or DIR/. for its contents");
        }
        return List.of("tar", "-c", "-f", "-", "-C", split[0], "./" + split[1]);
    }

    /**
     * Where the copied tree lands, as {@code docker cp}: inside an existing directory under its own name, else at
     * {@code dest} itself (whose parent must exist); a directory never replaces a file.
     */
    static Path localTarget(String dest, String name, boolean directory) {
        Path abs = Path.of(dest).toAbsolutePath().normalize();
        boolean slash = dest.endsWith("/");
        if (Files.isDirectory(abs)) {
            return name == null ? abs : abs.resolve(name);
        }
        if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
            if (directory) {
                throw Failure.usage("cannot copy a directory over the file " + Quoted.input(dest.toString(),
                        Text::safe));
            }
            return abs;
        }
        if (slash || abs.getParent() == null || !Files.isDirectory(abs.getParent())) {
            throw Failure.usage("the directory of " + Quoted.input(dest, Text::safe) + " does not exist");
        }
        return abs;
    }

    private static RemoteKind usable(RemoteKind kind, SandboxPath at) {
        if (kind == RemoteKind.NO_TAR) {
            throw Failure.usage("the sandbox of " + Quoted.input(at.toString(), Text::safe) + " has no `tar` on its"
                    + " PATH; copy needs tar in the sandbox's image");
        }
        return kind;
    }

    /** A sandbox path's directory and last name, trailing slashes dropped ({@code a/b/} is {@code [a, b]}). */
    static String[] split(String path) {
        String p = path;
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        int slash = p.lastIndexOf('/');
        return slash < 0 ? new String[] {".", p} : new String[] {slash == 0 ? "/" : p.substring(0, slash),
                p.substring(slash + 1)};
    }

    private static String count(int entries) {
        return entries == 1 ? "1 entry" : entries + " entries";
    }

    private static String name(Path local, String given) {
        if (local.getFileName() == null) {
            throw Failure.usage("name the directory to copy, or DIR/. for its contents (not "
                    + Quoted.input(given, Text::safe) + ")");
        }
        return local.getFileName().toString();
    }
}
