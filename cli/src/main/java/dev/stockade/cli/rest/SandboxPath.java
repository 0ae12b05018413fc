package dev.stockade.cli.rest;

import dev.stockade.policy.text.Quoted;
import java.util.UUID;

/**
 * One side of {@code sandbox copy} that lies in a sandbox: {@code SANDBOX_ID:PATH}. Sandbox ids are UUIDs, so an
 * argument is remote only when what precedes its first colon is one; a local file whose name looks like that is
 * written {@code ./ID:name}. A relative path is relative to the sandbox's working directory ({@code /workspace}).
 */
record SandboxPath(String sandboxId, String path) {
    /** The remote side named by {@code arg}, or null when {@code arg} is a local path. */
    static SandboxPath parse(String arg) {
        int colon = arg.indexOf(':');
        if (colon != 36) {
            return null;
        }
        String id = arg.substring(0, colon);
        try {
            if (!UUID.fromString(id).toString().equalsIgnoreCase(id)) {
                return null;
            }
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
        String path = arg.substring(colon + 1);
        if (path.isEmpty() || path.indexOf('\0') >= 0) {
            throw Failure.usage(Quoted.input(arg, Text::safe) + " names no path in the sandbox: write SANDBOX_ID:PATH"
                    + " (a relative PATH is under /workspace)");
        }
        return new SandboxPath(id, path);
    }

    /** {@code PATH/.}: the directory's contents rather than the directory itself (as {@code docker cp}). */
    boolean contentsOnly() {
        return path.equals(".") || path.endsWith("/.");
    }

    /** Shown in messages as the user wrote it. */
    @Override
    public String toString() {
        return sandboxId + ":" + path;
    }
}
