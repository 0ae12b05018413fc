package dev.stockade.api.inference;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Authorizer;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Problems;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.types.files.StreamedFile;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The model-call routes: {@code /v1/projects/{projectId}/llm/<backend>/...}, and {@code /v1/llm/<backend>/...} for a
 * caller with exactly one project (a sandbox's token always has one; anyone else gets 400). The answer streams back
 * as it arrives; a spending limit reached answers 429 with {@code x-should-retry: false}, so the official SDKs do not
 * retry into a closed budget.
 */
@Controller("/v1")
@Tag(name = "inference")
record LlmController(LlmProxy proxy, Authorizer authorizer, Problems problems) {
    private static final String PROJECT_PREFIX = "/v1/projects/";
    private static final String UNSCOPED_PREFIX = "/v1/llm/";
    /** Bedrock's streamed answers: AWS event-stream frames. */
    private static final String EVENT_STREAM = "application/vnd.amazon.eventstream";

    @Post("/projects/{projectId}/llm/{path:.+}")
    @Consumes(MediaType.ALL)
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM, EVENT_STREAM, MediaType.ALL})
    @Access(Action.LLM_CALL)
    HttpResponse<?> scoped(HttpRequest<?> request, String projectId, String path, @Nullable @Body byte[] body) {
        String raw = request.getUri().getRawPath();
        String prefix = PROJECT_PREFIX + projectId + "/llm/";
        return call(request, Caller.grant(request), raw.startsWith(prefix) ? raw.substring(prefix.length()) : path,
                body);
    }

    @Post("/llm/{path:.+}")
    @Consumes(MediaType.ALL)
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM, EVENT_STREAM, MediaType.ALL})
    @Access(Action.LLM_CALL_UNSCOPED)
    HttpResponse<?> unscoped(HttpRequest<?> request, String path, @Nullable @Body byte[] body) {
        Grant grant = CallerProject.of(authorizer, Caller.identity(request), Caller.grant(request));
        String raw = request.getUri().getRawPath();
        return call(request, grant, raw.startsWith(UNSCOPED_PREFIX) ? raw.substring(UNSCOPED_PREFIX.length()) : path,
                body);
    }

    private HttpResponse<?> call(HttpRequest<?> request, Grant grant, String rawPath, byte[] body) {
        LlmProxy.Answer answer;
        try {
            LlmRoute route = LlmRoute.parse(rawPath);
            answer = proxy.forward(new LlmProxy.Call(Caller.identity(request), grant.orgId(), grant.projectId(),
                    request.getMethodName(), route, request.getUri().getRawQuery(), request.getHeaders().asMap(),
                    body == null ? new byte[0] : body));
        } catch (ApiProblem p) {
            return refusal(problems, p);
        }
        MutableHttpResponse<StreamedFile> out = HttpResponse.<StreamedFile>ok().status(answer.status());
        answer.headers().forEach((name, values) -> values.forEach(v -> out.header(name, v)));
        if (answer.body() == null) {
            return out;
        }
        String type = answer.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("content-type"))
                .flatMap(e -> e.getValue().stream()).findFirst().orElse(MediaType.APPLICATION_JSON);
        return out.body(new StreamedFile(answer.body(), MediaType.of(type)));
    }

    /**
     * A model call's refusal as problem details; a spending limit reached says {@code x-should-retry: false} (the
     * budget is closed: the official SDKs would otherwise retry three times). HTTP calls and realtime handshakes.
     */
    static MutableHttpResponse<?> refusal(Problems problems, ApiProblem p) {
        MutableHttpResponse<?> refused = problems.response(p);
        if (p.code() == ProblemCode.SPENDING_LIMIT_REACHED) {
            refused.header("x-should-retry", "false");
        }
        return refused;
    }
}
