package dev.stockade.api.sandbox.provision;

/**
 * What a provisioner sees of a sandbox.
 *
 * @param phase  {@code absent}, {@code starting}, {@code running}, {@code stopped} or {@code failed}
 * @param detail a short explanation for {@code failed}, safe to show the owner; otherwise empty
 */
public record RuntimeStatus(String phase, String detail) {
    public static RuntimeStatus absent() {
        return new RuntimeStatus("absent", "");
    }

    public boolean running() {
        return phase.equals("running");
    }
}
