package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.audit.AuditQuery;
import dev.stockade.api.audit.AuditTrail;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.policy.impact.EntryKind;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The platform's own trail as the core reads it: every egress decision and tool call of a window, of the grant's
 * organization or project, a page at a time, each entry in the shape the API answers and the CLI exports. Impact and
 * suggest read the same entries, so a suggestion replays on the window it came from.
 */
@Singleton
record PlatformTrail(AuditTrail trail, ObjectMapper json) {
    /** Hands every entry of the window to {@code sink}, kind by kind, newest first within a kind. */
    void each(Grant grant, TrailWindow window, Consumer<ObjectNode> sink) {
        for (EntryKind kind : EntryKind.values()) {
            Instant cursor = null;
            Long cursorId = null;
            while (true) {
                AuditTrail.Page page = trail.page(grant.orgId(), new AuditQuery(cursor, cursorId, window.since(),
                        window.until(), kind.slug(), null, null, grant.projectId(), null, false,
                        AuditQuery.MAX_LIMIT));
                page.items().forEach(e -> sink.accept(exported(e)));
                if (page.nextCursor() == null) {
                    break;
                }
                cursor = Instant.parse(page.nextCursor());
                cursorId = page.nextCursorId();
            }
        }
    }

    /** An entry in the shape the API answers and the CLI exports, which the core reads. */
    private ObjectNode exported(AuditTrail.Entry e) {
        ObjectNode n = json.createObjectNode().put("at", e.at().toString()).put("kind", e.kind())
                .put("action", e.action()).put("outcome", e.outcome()).put("target", e.target());
        if (e.projectId() != null) {
            n.put("projectId", e.projectId().toString());
        }
        n.putObject("actor").put("type", e.actor().type()).put("id", e.actor().id());
        n.set("details", json.valueToTree(e.details()));
        return n;
    }
}
