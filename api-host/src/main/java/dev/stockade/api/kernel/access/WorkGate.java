package dev.stockade.api.kernel.access;

/**
 * Whether agent work may go on at all (the installation is enrolled and not revoked). The access filter asks it
 * before every gated action; the enrollment feature answers, so the kernel never imports it.
 */
public interface WorkGate {
    /** Throws an {@link ApiProblem} (503) unless agent work may go on. */
    void check();
}
