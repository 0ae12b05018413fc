package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bubblewrap command line of a local sandbox and its environment. The sandbox runs as uid 1000 in its own user
 * namespace (the host's root is not root inside), sees the host's {@code /usr} read-only, a minimal {@code /etc}
 * (CA bundles, name service files) plus the proxy's CA, its volume at {@code /workspace} and a private {@code /tmp}.
 * Its init process waits forever; work arrives through exec.
 */
final class Bubblewrap {
    static final int UID = 1000;
    static final String CA_PATH = "/etc/stockade/ca.pem";
    static final String INIT = "trap 'exit 0' TERM INT; while :; do sleep 3600 & wait $!; done";

    private Bubblewrap() {
    }

    /**
     * The sandbox's bubblewrap options, as its launcher reads them ({@code --args}): the environment first (the
     * launcher's own is cleared), then the namespaces and mounts. The command, its init, is on the launcher's own
     * command line ({@code --args} carries options only).
     */
    static List<String> args(Path volume, Path ca, SandboxSpec spec) {
        List<String> a = new ArrayList<>(List.of("--clearenv"));
        environment(spec).forEach((k, v) -> a.addAll(List.of("--setenv", k, v)));
        a.addAll(List.of("--die-with-parent", "--unshare-user", "--uid",
                Integer.toString(UID), "--gid", Integer.toString(UID), "--unshare-pid", "--unshare-ipc",
                "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox",
                "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
                "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64"));
        for (String etc : etcShared()) {
            a.addAll(List.of("--ro-bind-try", etc, etc));
        }
        a.addAll(List.of("--ro-bind", ca.toString(), CA_PATH, "--proc", "/proc", "--dev", "/dev",
                "--tmpfs", "/tmp", "--bind", volume.toString(), "/workspace", "--chdir", "/workspace"));
        return a;
    }

    /**
     * What of the host's {@code /etc} a sandbox sees, read-only: certificates, the dynamic loader's cache, name
     * service and time zone files, and the JDKs' configuration ({@code /etc/java-<N>-openjdk} on Debian, where the
     * JDK under {@code /usr} keeps its {@code java.security}: without it no Java program starts).
     */
    static List<String> etcShared() {
        List<String> shared = new ArrayList<>(List.of("/etc/ssl", "/etc/ca-certificates", "/etc/alternatives",
                "/etc/ld.so.cache", "/etc/nsswitch.conf", "/etc/hosts", "/etc/localtime", "/etc/mime.types"));
        String[] names = new java.io.File("/etc").list((dir, name) -> name.startsWith("java-"));
        if (names != null) {
            java.util.Arrays.stream(names).sorted().forEach(n -> shared.add("/etc/" + n));
        }
        return shared;
    }

    /**
     * The sandbox's environment: the core's env plan (policy env, credential sentinels, managed inference) first,
     * then what the platform owns: the proxy (with the sandbox's token as the proxy password), the CA trust.
     */
    static Map<String, String> environment(SandboxSpec spec) {
        Map<String, String> env = new LinkedHashMap<>(spec.env());
        String proxy = "http://sandbox:" + spec.egress().proxyToken() + "@" + spec.egress().host() + ":"
                + spec.egress().port();
        for (String k : List.of("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy")) {
            env.put(k, proxy);
        }
        env.put("NO_PROXY", "");
        env.put("no_proxy", "");
        for (String k : List.of("SSL_CERT_FILE", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS",
                "GIT_SSL_CAINFO")) {
            env.put(k, CA_PATH);
        }
        env.put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        env.put("HOME", "/workspace");
        env.put("STOCKADE_SANDBOX_ID", spec.sandboxId());
        return env;
    }

    /**
     * Starts a launcher: a shell joins the cgroups (so everything it becomes inherits the limits), enters the network
     * namespace with {@code nsenter} and becomes bubblewrap, which waits for its arguments on standard input
     * ({@code --args 0}). All of that is the slow part of a start (the cgroup joins above all), done before the
     * sandbox is known; {@link #launch} then hands it a sandbox. Its environment is a {@code PATH} only (the sandbox's
     * comes with its arguments), its output goes to {@code console}. {@code nsenter --net} only joins the namespace;
     * {@code ip netns exec} would also copy the host's mount table. bubblewrap's {@code --die-with-parent} follows the
     * thread that calls this: a long-lived one.
     */
    static Process launcher(Path netns, List<Path> cgroups, Path console) throws ProvisionException {
        StringBuilder join = new StringBuilder();
        for (Path procs : cgroups) {
            join.append("echo $$ > '").append(procs).append("' && ");
        }
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c",
                join + "exec nsenter --net=\"$0\" bwrap --args 0 /bin/sh -c \"$1\"", netns.toString(), INIT)
                .redirectErrorStream(true).redirectOutput(console.toFile());
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        try {
            return pb.start();
        } catch (IOException e) {
            throw new ProvisionException("cannot start the sandbox: " + e.getMessage());
        }
    }

    /**
     * Waits (at most 10 s) until a launcher has become bubblewrap, so its cgroups are joined and its namespace entered:
     * a start that takes it then waits for none of that. False if it ended or never got there.
     */
    static boolean awaitLauncher(Process p) {
        return poll(p, () -> comm(p.pid()).equals("bwrap") ? p.pid() : -1) > 0;
    }

    /**
     * Hands a waiting launcher its sandbox: the arguments NUL-separated on its standard input, which then ends, and
     * bubblewrap starts. They never appear on a command line (the environment carries credentials' sentinels and the
     * sandbox's token).
     */
    static void launch(Process launcher, List<String> args) throws ProvisionException {
        StringBuilder text = new StringBuilder();
        for (String arg : args) {
            if (arg.indexOf('\0') >= 0) {
                throw new ProvisionException("the sandbox's environment or paths contain a NUL character");
            }
            text.append(arg).append('\0');
        }
        try (var in = launcher.getOutputStream()) {
            in.write(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ProvisionException("cannot start the sandbox: its launcher is gone (" + e.getMessage() + ")");
        }
    }

    /**
     * Waits (at most 10 s) until the init shell runs inside the namespaces; its host pid, or -1 if the sandbox exited.
     * bubblewrap forks its namespace init, which forks the shell once the mounts are in place; the children are read
     * from {@code /proc/<pid>/task/<pid>/children}, two small files, where {@link ProcessHandle#children()} would
     * scan every process on the host (thousands, with hundreds of sandboxes).
     */
    static long awaitInit(Process p) {
        return poll(p, () -> {
            long shell = ProcessTree.firstChild(ProcessTree.firstChild(p.pid()));
            return shell > 0 && comm(shell).endsWith("sh") ? shell : -1;
        });
    }

    /**
     * Asks {@code found} every millisecond (at most 10 s) while {@code p} runs: its first positive answer, or -1 if
     * {@code p} ended, the time ran out or the wait was interrupted. The process steps it waits for take milliseconds
     * (tens under load) and announce themselves nowhere but in {@code /proc}.
     */
    private static long poll(Process p, java.util.function.LongSupplier found) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline && p.isAlive()) {
            long answer = found.getAsLong();
            if (answer > 0) {
                return answer;
            }
            try {
                Thread.sleep(1); // bounded poll: see above
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }
        return -1;
    }

    private static String comm(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** The last lines of the sandbox's console, for an error message. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
        } catch (IOException e) {
            return "(no console output)";
        }
    }
}
