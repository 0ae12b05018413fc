package dev.stockade.api.oauth;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.identity.OidcDiscovery;
import dev.stockade.api.kernel.net.OutboundClients;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * {@code POST /oauth/token}: relays the sign-in grants (authorization code, refresh token, device code) to the
 * identity provider's token endpoint, so clients need to know only the platform. Any other grant (client
 * credentials, password, token exchange) is answered 400 without reaching the provider.
 */
@Controller("/oauth")
@Tag(name = "sign-in")
class TokenRelayController {
    static final Set<String> GRANTS = Set.of("authorization_code", "refresh_token",
            "urn:ietf:params:oauth:grant-type:device_code");

    private final OidcDiscovery discovery;
    private final HttpClient http = OutboundClients.trusted(Duration.ofSeconds(5));

    TokenRelayController(OidcDiscovery discovery) {
        this.discovery = discovery;
    }

    @Post("/token")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Access(Action.OAUTH_RELAY)
    HttpResponse<String> token(@Body Map<String, String> form) {
        String grant = form.get("grant_type");
        if (grant == null || !GRANTS.contains(grant)) {
            throw new ApiProblem(ProblemCode.UNSUPPORTED_GRANT_TYPE, "only authorization_code, refresh_token and the"
                    + " device-code grant are relayed");
        }
        OidcDiscovery.Document doc = discovery.document().filter(d -> d.tokenEndpoint() != null).orElseThrow(
                () -> new ApiProblem(ProblemCode.NOT_FOUND, "this installation has no identity provider configured"));
        StringJoiner body = new StringJoiner("&");
        form.forEach((k, v) -> body.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        try {
            var r = http.send(HttpRequest.newBuilder(doc.tokenEndpoint()).timeout(Duration.ofSeconds(15))
                    .header("Content-Type", MediaType.APPLICATION_FORM_URLENCODED)
                    .header("Accept", MediaType.APPLICATION_JSON)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return HttpResponse.<String>status(io.micronaut.http.HttpStatus.valueOf(r.statusCode()))
                    .contentType(r.headers().firstValue("Content-Type").orElse(MediaType.APPLICATION_JSON))
                    .header("Cache-Control", "no-store").body(r.body());
        } catch (IOException e) {
            throw new ApiProblem(ProblemCode.UPSTREAM_FAILED, "the identity provider could not be reached");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiProblem(ProblemCode.UPSTREAM_FAILED, "interrupted while relaying to the identity provider");
        }
    }
}
