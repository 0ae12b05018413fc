package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the host tools the local provisioner drives ({@code ip}, {@code bridge}), each bounded in time. */
final class Shell {
    private Shell() {
    }

    /** Runs {@code argv}; a non-zero exit is a {@link ProvisionException} carrying the tool's first error line. */
    static String run(List<String> argv) throws ProvisionException {
        return run(argv, false);
    }

    /** Runs {@code argv}, ignoring a failure (cleanup of what may not exist). */
    static void quiet(List<String> argv) {
        try {
            run(argv, true);
        } catch (ProvisionException e) {
            // cleanup of something that is already gone
        }
    }

    private static String run(List<String> argv, boolean quiet) throws ProvisionException {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readNBytes(64 * 1024);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new ProvisionException("`" + argv.get(0) + "` did not finish within 30 s");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0 && !quiet) {
                String first = text.lines().findFirst().orElse("exit " + p.exitValue());
                throw new ProvisionException("`" + String.join(" ", argv.subList(0, Math.min(3, argv.size())))
                        + "` failed: " + first);
            }
            return text;
        } catch (IOException e) {
            throw new ProvisionException("cannot run `" + argv.get(0) + "`: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProvisionException("interrupted");
        }
    }
}
