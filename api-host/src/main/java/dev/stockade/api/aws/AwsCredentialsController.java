package dev.stockade.api.aws;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The container credentials endpoint a sandbox's AWS SDK reads ({@code AWS_CONTAINER_CREDENTIALS_FULL_URI}, with
 * the sandbox token as {@code AWS_CONTAINER_AUTHORIZATION_TOKEN}): cloud calls are then signed inside the sandbox,
 * and the platform never proxies them.
 */
@Controller("/v1")
@Tag(name = "aws-connections")
class AwsCredentialsController {
    static final String PATH = "/v1/sandbox/aws-credentials/";

    private final AwsCredentialsIssuer issuer;

    AwsCredentialsController(AwsCredentialsIssuer issuer) {
        this.issuer = issuer;
    }

    @Get("/sandbox/aws-credentials/{name}")
    @Access(Action.AWS_CREDENTIALS_ISSUE)
    ServedCredentials credentials(HttpRequest<?> request, String name) {
        return issuer.issue((Identity.SandboxToken) Caller.identity(request), name);
    }
}
