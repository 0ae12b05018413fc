package dev.stockade.api.sandbox.local;

import dev.stockade.api.sandbox.provision.SandboxSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bubblewrap command line of a local sandbox and its environment. The sandbox runs as uid 1000 in its own user
 * namespace (the host's root is not root inside), sees the host's {@code /usr} read-only, a minimal {@code /etc}
 * (CA bundles, name service files) plus the proxy's CA, its volume at {@code /workspace} and a private {@code /tmp}.
 * Its init process waits forever; work arrives through exec.
 */
final class Bubblewrap {
    static final int UID = 1000;
    static final String CA_PATH = "/etc/stockade/ca.pem";
    private static final String INIT = "trap 'exit 0' TERM INT; while :; do sleep 3600 & wait $!; done";

    private Bubblewrap() {
    }

    static List<String> argv(Path volume, Path ca, SandboxSpec spec) {
        List<String> a = new ArrayList<>(List.of("bwrap", "--die-with-parent", "--unshare-user", "--uid",
                Integer.toString(UID), "--gid", Integer.toString(UID), "--unshare-pid", "--unshare-ipc",
                "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox",
                "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
                "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64"));
        for (String etc : etcShared()) {
            a.addAll(List.of("--ro-bind-try", etc, etc));
        }
        a.addAll(List.of("--ro-bind", ca.toString(), CA_PATH, "--proc", "/proc", "--dev", "/dev",
                "--tmpfs", "/tmp", "--bind", volume.toString(), "/workspace", "--chdir", "/workspace",
                "/bin/sh", "-c", INIT));
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
    static Map<String, String> environment(SandboxSpec spec, String gateway) {
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

    /** Waits (at most 10 s) until the init process runs inside the namespaces; its pid, or -1 if it exited. */
    static long awaitInit(Process p) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                return -1;
            }
            Optional<Long> pid = innermost(p.toHandle());
            if (pid.isPresent()) {
                return pid.get();
            }
            try {
                Thread.sleep(5); // bounded poll: bwrap forks its namespace init, then the shell
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }
        return -1;
    }

    /** The init shell: bwrap's namespace init's child (two levels below the outer bwrap). */
    static Optional<Long> innermost(ProcessHandle outer) {
        return outer.children().flatMap(ProcessHandle::children)
                .filter(h -> h.info().command().map(c -> c.endsWith("sh")).orElse(false))
                .map(ProcessHandle::pid).min(Comparator.naturalOrder());
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
