package dev.stockade.api.inference;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.policy.model.Provider;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;

/**
 * The deployment's backends ({@code /v1/inference/providers}), one organization's view of them
 * ({@code /v1/orgs/{orgId}/inference/providers}) and the organization's own keys
 * ({@code /v1/orgs/{orgId}/inference/keys}, a signed-in org administrator only).
 */
@Controller("/v1")
@Tag(name = "inference")
class InferenceController {
    private final ProviderCatalog catalog;
    private final InferenceKeys keys;

    InferenceController(ProviderCatalog catalog, InferenceKeys keys) {
        this.catalog = catalog;
        this.keys = keys;
    }

    @Get("/inference/providers")
    @Access(Action.INFERENCE_PROVIDERS_READ)
    InferenceViews.DeploymentProviders deployment() {
        return catalog.deployment();
    }

    @Get("/orgs/{orgId}/inference/providers")
    @Access(Action.ORG_INFERENCE_PROVIDERS_READ)
    InferenceViews.OrgProviders org(HttpRequest<?> request, String orgId) {
        return catalog.of(Caller.grant(request).orgId());
    }

    @Get("/orgs/{orgId}/inference/keys")
    @Access(Action.INFERENCE_KEYS_MANAGE)
    InferenceViews.Keys list(HttpRequest<?> request, String orgId) {
        return new InferenceViews.Keys(keys.stored(Caller.grant(request).orgId()).stream()
                .map(InferenceViews.KeyView::of).toList());
    }

    @Put("/orgs/{orgId}/inference/keys/{source}")
    @Access(Action.INFERENCE_KEYS_MANAGE)
    InferenceViews.KeyView put(HttpRequest<?> request, String orgId, String source,
                               @Valid @Body InferenceViews.SetKey body) {
        return InferenceViews.KeyView.of(keys.put(Caller.identity(request), Caller.grant(request).orgId(),
                provider(source), body.key()));
    }

    @Delete("/orgs/{orgId}/inference/keys/{source}")
    @Access(Action.INFERENCE_KEYS_MANAGE)
    HttpResponse<Void> delete(HttpRequest<?> request, String orgId, String source) {
        Provider p = provider(source);
        if (!keys.delete(Caller.identity(request), Caller.grant(request).orgId(), p)) {
            throw ApiProblem.notFound("inference key `" + p.wire() + "`");
        }
        return HttpResponse.noContent();
    }

    private static Provider provider(String source) {
        Provider p = Provider.fromWire(source);
        if (p == null) {
            throw ApiProblem.notFound("inference key source `" + dev.stockade.api.kernel.web.Text.clip(source)
                    + "` (one of bedrock, azure, bedrock-mantle, openai, openrouter, litellm)");
        }
        return p;
    }
}
