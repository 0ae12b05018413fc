package dev.stockade.api.replicas;

import dev.stockade.api.support.SandboxShell;
import dev.stockade.testing.Await;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A separate egress proxy replica ({@code stockade proxy --platform}) as a process, on the local sandboxes' bridge
 * address and a fixed port (a restart comes back where sandboxes expect it), and the requests a sandbox makes through
 * it with its own sandbox token to the test's origin on {@code originPort}.
 */
record ReplicaProxy(ReplicaProcess process, int port, int originPort) {
    /** The bridge address of the local provisioner's default network ({@code sandbox.local.network}). */
    static final String GATEWAY = "10.213.0.1";
    private static final Pattern SYNCED = Pattern.compile("in sync at version (\\d+)");

    /** Starts the replica following {@code platform} and waits for its first full sync. */
    static ReplicaProxy start(String name, Path dir, String platform, Path tokenFile, int originPort) {
        int port = ReplicaProcess.freePort();
        ReplicaProcess p = ReplicaProcess.proxy(name, dir, List.of("--platform", platform, "--platform-token-file",
                tokenFile.toString(), "--bind", GATEWAY, "--port", Integer.toString(port), "--data-dir",
                dir.resolve(name).toString(), "--audit", dir.resolve(name + "-audit.jsonl").toString(),
                // the origin is this JVM's loopback server, under two names the policies tell apart
                "--unsafe-allow-loopback-origins", "--resolve", "allowed.test=127.0.0.1", "--resolve",
                "other.test=127.0.0.1"));
        p.start().awaitOutput("in sync at version", 1, Await.LONG);
        return new ReplicaProxy(p, port, originPort);
    }

    /** The version of the replica's last full sync, from its log. */
    long syncedVersion() {
        Matcher m = SYNCED.matcher(process.output());
        long last = -1;
        while (m.find()) {
            last = Long.parseLong(m.group(1));
        }
        return last;
    }

    /** curl inside the sandbox through this replica (the sandbox's proxy URL, this replica's port). */
    String curl(SandboxShell shell, String sandboxPath, String host) throws Exception {
        return shell.run(sandboxPath, "curl -sS -m 20 -w ' [%{http_code}]' -x \"$(echo \"$HTTP_PROXY\" | sed"
                + " 's/:[0-9]*$/:" + port + "/')\" http://" + host + ":" + originPort + "/");
    }

    /** curl again until the answer ends with {@code status} (the replica applies a change when its feed brings it). */
    String until(SandboxShell shell, String sandboxPath, String host, String status) {
        String[] out = {""};
        Await.until(host + " through " + process.name() + " to answer " + status, Await.LONG, () -> {
            try {
                out[0] = curl(shell, sandboxPath, host);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return out[0].endsWith(status);
        });
        return out[0];
    }
}
