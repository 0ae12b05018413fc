package dev.stockade.api.sandbox.provision;

/** A provisioner could not do what it was asked; the message is safe to show the sandbox's owner. */
public final class ProvisionException extends Exception {
    public ProvisionException(String message) {
        super(message);
    }

    public ProvisionException(String message, Throwable cause) {
        super(message, cause);
    }
}
