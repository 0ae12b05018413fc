package dev.stockade.api.egress;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.proxy.feed.DocumentHash;
import dev.stockade.proxy.feed.FeedWire;
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
 * {@code GET /v1/egress/feed?after=VERSION[&wire=2]}: the stream a separate egress proxy replica reads to enforce what
 * the platform resolved for every sandbox (server-sent events, format in proxy-host's {@code FeedWire}), and
 * {@code GET /v1/egress/documents/{sha256}}, a document a replica lacks. Only a proxy token reads them: the feed
 * carries every sandbox's credentials.
 */
@Controller("/v1")
@Tag(name = "egress")
record FeedController(FeedHub hub, ReplicaAudit audit, EnforcementStore store) {
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
                                  @Nullable @QueryValue String wire,
                                  @Nullable @Header("Last-Event-ID") String lastEventId) {
        int shape = wire(wire);
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
        return hub.open(version, shape, proxy.tokenId(), proxy.name());
    }

    /**
     * A policy document some set lists, by the hash of its text.
     *
     * @param sha256 the hash, lowercase hex
     * @param text   the document's text exactly as hashed (a replica checks it against the hash)
     */
    record DocumentText(String sha256, String text) {
    }

    /** A document a replica lacks, by hash. */
    @Get(value = "/egress/documents/{sha256}", produces = MediaType.APPLICATION_JSON)
    @Access(Action.EGRESS_FEED)
    DocumentText document(String sha256) {
        DocumentHash hash;
        try {
            hash = new DocumentHash(sha256);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid("/sha256", "document-hash", "`sha256` must be 64 lowercase hexadecimal digits");
        }
        return new DocumentText(hash.hex(), store.document(hash).orElseThrow(() -> ApiProblem.notFound("document")));
    }

    /**
     * The feed's wire: 1 (sets with their documents whole) unless the replica asks for 2 (documents by hash) or 3
     * (documents by hash and shared lists by name).
     */
    private static int wire(String wire) {
        String w = wire == null ? "" : wire.strip();
        if (w.isEmpty() || w.equals("1")) {
            return 1;
        }
        if (w.equals(Integer.toString(FeedWire.BY_HASH))) {
            return FeedWire.BY_HASH;
        }
        if (w.equals(Integer.toString(FeedWire.SHARED_LISTS))) {
            return FeedWire.SHARED_LISTS;
        }
        throw ApiProblem.invalid("/wire", "wire", "`wire` must be 1, 2 or 3");
    }
}
