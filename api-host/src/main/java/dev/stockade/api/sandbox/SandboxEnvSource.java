package dev.stockade.api.sandbox;

import java.util.Map;

/**
 * Variables a higher feature adds to a sandbox's environment at provisioning (the AWS connections' container
 * credentials URL), asked through this interface because the sandbox feature sits on a lower floor than they do.
 */
public interface SandboxEnvSource {
    /**
     * The variables to add for sandbox {@code s}; never a secret of the platform's own.
     *
     * @param platformApiUrl the platform's API ({@code .../v1}) as this sandbox reaches it
     * @param sandboxToken   the sandbox's own token, which the platform knows it by
     */
    Map<String, String> env(Sandbox s, String platformApiUrl, String sandboxToken);
}
