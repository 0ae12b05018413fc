package dev.stockade.api.sandbox.provision;

import java.util.Optional;

/**
 * Where sandboxes run: the one seam between the sandbox feature (records, states, revisions, timers) and the
 * machinery that runs a sandbox's process tree. Two implementations, both real: {@code local} (bubblewrap and
 * network namespaces on this Linux host) and {@code kubernetes} (pods through the fabric8 client). The sandbox
 * feature owns every state transition; a provisioner only does what it is told and reports what it sees.
 *
 * <p>Every method may block (it runs on a worker thread, never on an event loop) and must be idempotent: the sandbox
 * feature retries after a host restart, so {@code provision} of a sandbox that already runs re-provisions it, and
 * {@code stop} or {@code delete} of one that is not there succeed.
 */
public interface Provisioner {

    /** {@code local} or {@code kubernetes}: the value of the install's {@code sandbox.provisioner}. */
    String kind();

    /**
     * Starts the sandbox as {@code spec} describes, replacing whatever ran for it before (a restart re-provisions
     * the active revision). Returns once the sandbox's process tree runs; the volume survives.
     *
     * @throws ProvisionException with a message safe to show the sandbox's owner (no secret)
     */
    void provision(SandboxSpec spec) throws ProvisionException;

    /**
     * The platform's API ({@code .../v1}) as a sandbox of this provisioner reaches it: the sandbox's
     * {@code PLATFORM_API_URL}, which the env plan's managed-inference base URLs are written over.
     */
    String platformApiUrl() throws ProvisionException;

    /** Stops the sandbox's processes; its volume and record stay. */
    void stop(String sandboxId) throws ProvisionException;

    /** Stops the sandbox and deletes its volume and everything the provisioner made for it. */
    void delete(String sandboxId) throws ProvisionException;

    /** What the provisioner sees now; {@link RuntimeStatus#absent()} when it runs nothing for the sandbox. */
    RuntimeStatus status(String sandboxId);

    /**
     * Runs a command inside a running sandbox (interactive exec): with a pseudo-terminal when
     * {@link ExecRequest#tty()} is set, otherwise with separate stdout and stderr.
     */
    ExecProcess exec(String sandboxId, ExecRequest request) throws ProvisionException;

    /**
     * Where the platform reaches the sandbox's exposed {@code port} (for the ingress and {@code port-readiness}):
     * empty while the sandbox does not run.
     */
    Optional<java.net.InetSocketAddress> portAddress(String sandboxId, int port);

    /**
     * At the platform's start, before anything is provisioned: removes what an earlier run left for sandboxes that
     * {@code exists} no longer knows (deleted just before a stop) and prepares ahead of demand. Never touches another
     * platform's resources. Nothing to do where the orchestrator owns the lifecycle (Kubernetes).
     */
    default void recover(java.util.function.Predicate<String> exists) {
    }
}
