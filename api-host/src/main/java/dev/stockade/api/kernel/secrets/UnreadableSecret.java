package dev.stockade.api.kernel.secrets;

/**
 * A sealed secret that this installation's key does not open: most often a replica started with another encryption
 * key than the one that sealed the database's secrets. It is a fault of the deployment, not of the request, and the
 * error path answers it as such (503, naming the cause) instead of an unexplained 500.
 */
public final class UnreadableSecret extends IllegalStateException {
    public UnreadableSecret() {
        super("a sealed secret does not open with this installation's key: every replica needs the same encryption"
                + " key (docs/deploy.md)");
    }
}
