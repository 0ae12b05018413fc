package dev.stockade.api.kernel.config;

import dev.stockade.policy.compiler.InstallFacts;
import java.util.UUID;

/**
 * What the core's resolution needs to know about managed inference for one organization: the backends it can be
 * served (with the install's key or its own) and whether Bedrock is offered through ambient credentials. Governance
 * asks; the inference feature, which holds the organizations' keys, answers.
 */
public interface InferenceFacts {
    /** The facts for {@code orgId}'s resolutions. */
    InstallFacts forOrg(UUID orgId);
}
