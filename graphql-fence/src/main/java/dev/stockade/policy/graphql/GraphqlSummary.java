package dev.stockade.policy.graphql;

import dev.stockade.policy.graphql.internal.SummaryJson;
import dev.stockade.policy.graphql.internal.SummaryReplay;
import dev.stockade.policy.model.OperationType;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a GraphQL fence judged in one request or websocket frame, small enough to keep in an audit line so that a
 * candidate fence can be replayed and suggested from the trail: per operation its type, declared name and root fields
 * (aliases looked through, root fragments expanded, each name once). It never holds argument values, variables or
 * anything below the root fields: those can carry secrets. Bounded by {@link #MAX_OPERATIONS}, {@link #MAX_FIELDS}
 * and {@link #MAX_NAME_LENGTH}; a request beyond them keeps a prefix and is marked {@code truncated}, which replay
 * never re-decides.
 *
 * @param operations every operation of every submitted document, batch elements in order
 * @param truncated  whether operations were left out to stay within the bounds
 */
public record GraphqlSummary(List<Operation> operations, boolean truncated) {

    /** Operations kept, over every element of a batch. */
    public static final int MAX_OPERATIONS = 32;
    /** Root field names kept, over every operation (each name counted once per operation). */
    public static final int MAX_FIELDS = 128;
    /** Longest operation or field name kept; a longer one truncates the summary. */
    public static final int MAX_NAME_LENGTH = 64;

    /**
     * One operation of a submitted document.
     *
     * @param element the batch element it came from, 0 for a request that is not a batch
     * @param type    query, mutation or subscription (the shorthand {@code { ... }} is a query)
     * @param name    the declared name, {@code null} when unnamed
     * @param fields  the root fields in document order, each once, never empty
     */
    public record Operation(int element, OperationType type, String name, List<String> fields) {
        /** Refuses what no request can produce: a name that is not a GraphQL name, no root field, type {@code *}. */
        public Operation {
            Objects.requireNonNull(type, "type");
            if (type == OperationType.ANY || element < 0) {
                throw new IllegalArgumentException("an operation has a concrete type and a batch element from 0");
            }
            if (name != null && !isName(name)) {
                throw new IllegalArgumentException("operation name is not a graphql name of at most "
                        + MAX_NAME_LENGTH + " characters");
            }
            fields = List.copyOf(fields);
            if (fields.isEmpty() || !fields.stream().allMatch(GraphqlSummary::isName)
                    || new HashSet<>(fields).size() != fields.size()) {
                throw new IllegalArgumentException("root fields are distinct graphql names, at least one");
            }
        }
    }

    /** Copies the operations and refuses a summary over the bounds or with elements out of order. */
    public GraphqlSummary {
        operations = List.copyOf(operations);
        if (operations.size() > MAX_OPERATIONS
                || operations.stream().mapToInt(o -> o.fields().size()).sum() > MAX_FIELDS) {
            throw new IllegalArgumentException("a summary holds at most " + MAX_OPERATIONS + " operations and "
                    + MAX_FIELDS + " root fields");
        }
        for (int i = 1; i < operations.size(); i++) {
            if (operations.get(i).element() < operations.get(i - 1).element()) {
                throw new IllegalArgumentException("operations are in batch order");
            }
        }
        if (operations.isEmpty() && !truncated) {
            throw new IllegalArgumentException("a complete summary holds at least one operation");
        }
    }

    /** Whether {@code text} is a GraphQL name (spec 2.1.9) no longer than {@link #MAX_NAME_LENGTH}. */
    public static boolean isName(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_NAME_LENGTH) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean letter = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
            if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }

    /** The operation types present, in {@link OperationType} order. */
    public Set<OperationType> types() {
        Set<OperationType> types = EnumSet.noneOf(OperationType.class);
        operations.forEach(o -> types.add(o.type()));
        return types;
    }

    /** The one JSON form, as audit lines carry it: {@code {"operations":[{element, type, name, fields}], "truncated"}}. */
    public String toJson() {
        return SummaryJson.write(this);
    }

    /**
     * The summary an audit line's {@code graphql} value holds; an {@link IllegalArgumentException} with a one-line
     * message when the text is not one (malformed, over the bounds, a name that is not a GraphQL name).
     */
    public static GraphqlSummary fromJson(String json) {
        return SummaryJson.read(json);
    }

    /**
     * A request that a fence reads as exactly these operations with no arguments: what replay hands the decision
     * program in place of the body it never kept. {@code GET}/{@code HEAD} carry it in URL parameters, any other
     * method as a JSON body (a batch when there were several elements). Empty when the summary is truncated or
     * cannot come from a request that was read (a GET batch, several operations none of which is uniquely named).
     */
    public Optional<ReplayRequest> replayRequest(String method) {
        return truncated ? Optional.empty() : SummaryReplay.request(this, method);
    }

    /**
     * A request rebuilt from a summary, in the parts {@link GraphqlExchange#of} takes.
     *
     * @param contentType {@code application/json} for a body, {@code null} for URL parameters
     * @param urlQuery    the encoded URL query without {@code ?}, {@code null} for a body
     * @param body        the JSON body bytes, {@code null} for URL parameters
     */
    public record ReplayRequest(String contentType, String urlQuery, byte[] body) {
    }
}
