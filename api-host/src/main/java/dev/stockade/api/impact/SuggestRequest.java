package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.SuggestOptions;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceMap;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A policy-suggest request, read and bounded before any entry is read: the window (as impact bounds it), at most one
 * selector (a sandbox, or a person or API token by id) and the options {@code stockade policy suggest} has.
 *
 * @param window   the window of the trail
 * @param sandbox  only this sandbox's egress and tool calls; {@code null} for every caller in scope
 * @param identity only the tool calls of the person or API token with this id; {@code null} for every caller
 * @param options  the suggester's options (name, thresholds, the entry cap), the selector among them
 */
record SuggestRequest(TrailWindow window, @Nullable UUID sandbox, @Nullable UUID identity, SuggestOptions options) {
    private static final Set<String> FIELDS = Set.of("since", "until", "sandbox", "identity", "minSubdomains",
            "minPaths", "name");
    /** A threshold above this asks for more distinct hosts or paths than a window's suggestion is worth reading. */
    static final int MAX_THRESHOLD = 1_000;

    static SuggestRequest parse(ObjectMapper json, String body, ImpactLimits limits, Instant now) {
        JsonNode root = BodyObject.read(json, body, FIELDS);
        TrailWindow window = TrailWindow.of(root, limits, now);
        UUID sandbox = uuid(root, "sandbox").orElse(null);
        UUID identity = uuid(root, "identity").orElse(null);
        if (sandbox != null && identity != null) {
            throw ApiProblem.invalid("/identity", "one-selector", "give `sandbox` or `identity`, not both");
        }
        SuggestOptions defaults = SuggestOptions.defaults();
        SuggestOptions options = new SuggestOptions(name(root, defaults.name()),
                threshold(root, "minSubdomains", defaults.minSubdomains()),
                threshold(root, "minPaths", defaults.minPaths()),
                sandbox != null ? sandbox.toString() : identity != null ? identity.toString() : null,
                limits.maxEntries());
        return new SuggestRequest(window, sandbox, identity, options);
    }

    private static Optional<UUID> uuid(JsonNode root, String field) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        try {
            if (v.isTextual()) {
                return Optional.of(UUID.fromString(v.asText()));
            }
        } catch (IllegalArgumentException e) {
            // answered below, as any value that is not a UUID
        }
        throw ApiProblem.invalid("/" + field, "type", "`" + field + "` must be a UUID");
    }

    private static int threshold(JsonNode root, String field, int otherwise) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return otherwise;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 2 || v.asInt() > MAX_THRESHOLD) {
            throw ApiProblem.invalid("/" + field, "range", "`" + field + "` must be a whole number from 2 to "
                    + MAX_THRESHOLD + ": one observation never justifies a wildcard");
        }
        return v.asInt();
    }

    /** The suggested policy's name, judged by the core's reader as any policy's name is. */
    private static String name(JsonNode root, String otherwise) {
        JsonNode v = root.get("name");
        if (v == null || v.isNull()) {
            return otherwise;
        }
        if (!v.isTextual()) {
            throw ApiProblem.invalid("/name", "type", "`name` must be a string");
        }
        JsonNode doc = JsonNodeFactory.instance.objectNode().put("name", v.asText());
        ReadResult r = PolicyReader.fromTree(doc, SourceMap.empty(), "suggested", doc.toString());
        Optional<Problem> refused = r.problems().stream().filter(Problem::isError)
                .filter(p -> p.pointer().startsWith("/name")).findFirst();
        if (refused.isPresent() || v.asText().isBlank()) {
            throw ApiProblem.invalid("/name", refused.map(Problem::code).orElse("required"),
                    refused.map(Problem::message).orElse("`name` must not be blank"));
        }
        return v.asText();
    }
}
