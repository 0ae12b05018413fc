package dev.stockade.api.egress;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.sse.Event;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.reactivestreams.Publisher;

/**
 * {@code GET /v1/egress/feed?after=VERSION}: the stream a separate egress proxy replica reads to enforce what the
 * platform resolved for every sandbox (server-sent events, format in proxy-host's {@code FeedWire}). Only a proxy
 * token reads it: it carries every sandbox's credentials.
 */
@Controller("/v1")
@Tag(name = "egress")
record FeedController(FeedHub hub, ReplicaAudit audit) {
    /**
     * {@code POST /v1/egress/audit}: a replica's audit lines (newline-delimited {@code AuditEvent} JSON) into the
     * trail; answers how many were stored, named no known sandbox, or did not read.
     */
    @Post(value = "/egress/audit", consumes = MediaType.ALL) // any type: authorization answers before the body is read
    @Access(Action.EGRESS_AUDIT_WRITE)
    ReplicaAudit.Result audit(@Body String lines) {
        return audit.append(lines);
    }

    @Get(value = "/egress/feed", produces = MediaType.TEXT_EVENT_STREAM)
    @Access(Action.EGRESS_FEED)
    Publisher<Event<String>> feed(HttpRequest<?> request, @Nullable @QueryValue String after,
                                  @Nullable @Header("Last-Event-ID") String lastEventId) {
        String from = after != null ? after : lastEventId;
        long version;
        try {
            version = from == null || from.isBlank() ? 0 : Long.parseLong(from.strip());
        } catch (NumberFormatException e) {
            throw ApiProblem.invalid("/after", "integer", "`after` must be a version number (a non-negative integer)");
        }
        if (version < 0) {
            throw ApiProblem.invalid("/after", "integer", "`after` must be a version number (a non-negative integer)");
        }
        Identity.ProxyToken proxy = (Identity.ProxyToken) Caller.identity(request);
        return hub.open(version, proxy.tokenId(), proxy.name());
    }
}
