package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.FenceReason;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the GraphQL submissions of one HTTP request, the way GraphQL servers accept them: POST JSON
 * (one object or a batch array), POST {@code application/graphql}, GET parameters. Anything that a
 * server might read differently from us is denied rather than guessed.
 */
public final class RequestReader {

    /** Request keys that name a stored document instead of sending its text. */
    private static final Set<String> DOCUMENT_IDS = Set.of("documentId", "doc_id", "queryId", "id");
    /** URL parameters some servers merge into a POST body. */
    private static final Set<String> GRAPHQL_PARAMS =
            Set.of("query", "operationName", "variables", "extensions", "documentId", "doc_id", "queryId", "id");

    private RequestReader() {
    }

    /** Every submission of the request, or the deny that reading it produced. */
    public static Prepared prepare(String method, String contentType, String urlQuery, byte[] body,
                                   boolean bodyTruncated, ParserSetup setup) {
        try {
            List<Submission> submissions = submissions(method, contentType, urlQuery, body, bodyTruncated, setup);
            List<List<PreparedOperation>> operations = new ArrayList<>(submissions.size());
            for (Submission submission : submissions) {
                operations.add(DocumentReader.read(submission, setup));
            }
            return Prepared.of(operations);
        } catch (Denied denied) {
            return denied.prepared();
        } catch (RuntimeException | StackOverflowError e) {
            // Fail closed: a bug or an unforeseen input must deny, never escape to the host.
            return Prepared.failed(FenceReason.UNPARSEABLE, "request could not be read");
        }
    }

    private static List<Submission> submissions(String method, String contentType, String urlQuery, byte[] body,
                                                boolean bodyTruncated, ParserSetup setup) throws Denied {
        int length = body == null ? 0 : body.length;
        if (bodyTruncated || length > setup.limits().maxBodyBytes()) {
            throw new Denied(FenceReason.LIMIT, "body exceeds the inspection limit of "
                    + setup.limits().maxBodyBytes() + " bytes");
        }
        boolean get = method != null && (method.equalsIgnoreCase("GET") || method.equalsIgnoreCase("HEAD"));
        Map<String, String> params = urlParameters(urlQuery);
        if (get) {
            if (length > 0) {
                throw new Denied(FenceReason.UNPARSEABLE, "a get request carries a body");
            }
            return List.of(fromParameters(params, setup));
        }
        for (String key : params.keySet()) {
            if (GRAPHQL_PARAMS.contains(key)) {
                throw new Denied(FenceReason.UNPARSEABLE, "url parameter " + Reason.quote(key) + " beside a request body");
            }
        }
        if ("application/graphql".equals(mediaType(contentType))) {
            return List.of(new Submission(utf8(body), null, Val.EMPTY_OBJECT));
        }
        // JSON for application/json and for anything else: a server may well read it as JSON.
        return fromJsonBody(body, setup);
    }

    private static List<Submission> fromJsonBody(byte[] body, ParserSetup setup) throws Denied {
        Val value;
        try {
            value = setup.json().read(body == null ? new byte[0] : body);
        } catch (JsonValues.JsonProblem e) {
            throw new Denied(FenceReason.UNPARSEABLE, "body is not valid json");
        }
        if (value instanceof Val.ListV batch) {
            if (batch.items().isEmpty()) {
                throw new Denied(FenceReason.UNPARSEABLE, "batch is empty");
            }
            List<Submission> submissions = new ArrayList<>(batch.items().size());
            for (Val item : batch.items()) {
                submissions.add(fromJsonObject(item, setup));
            }
            return submissions;
        }
        return List.of(fromJsonObject(value, setup));
    }

    /** One request object: {@code {query, operationName, variables, extensions}}. */
    static Submission fromJsonObject(Val value, ParserSetup setup) throws Denied {
        if (!(value instanceof Val.ObjV object)) {
            throw new Denied(FenceReason.UNPARSEABLE, "request is not a json object");
        }
        Map<String, Val> fields = object.fields();
        Val query = fields.get("query");
        requireInspectable(query != null && !(query instanceof Val.Null), fields.keySet(), fields.get("extensions"));
        if (!(query instanceof Val.Str text)) {
            throw new Denied(FenceReason.UNPARSEABLE, "query is not a string");
        }
        return new Submission(text.text(), operationName(fields.get("operationName")),
                variables(fields.get("variables"), setup));
    }

    private static Submission fromParameters(Map<String, String> params, ParserSetup setup) throws Denied {
        Val extensions = null;
        String extensionsText = params.get("extensions");
        if (extensionsText != null) {
            extensions = parseJson(extensionsText, setup, "extensions");
        }
        String query = params.get("query");
        requireInspectable(query != null, params.keySet(), extensions);
        String variablesText = params.get("variables");
        Val variables = variablesText == null ? null : parseJson(variablesText, setup, "variables");
        return new Submission(query, params.get("operationName"), variables(variables, setup));
    }

    /**
     * A request naming a stored document (persisted queries, trusted documents) carries no text to
     * inspect. With query text beside a document id the server might run either, so that is denied too;
     * Apollo's persistedQuery extension beside the text is fine (the server checks the hash).
     */
    private static void requireInspectable(boolean hasQuery, Set<String> keys, Val extensions) throws Denied {
        for (String key : keys) {
            if (DOCUMENT_IDS.contains(key)) {
                throw new Denied(FenceReason.PERSISTED_QUERY, "request names a stored document by `" + key + "`");
            }
        }
        if (hasQuery) {
            return;
        }
        if (extensions instanceof Val.ObjV ext && ext.fields().containsKey("persistedQuery")) {
            throw new Denied(FenceReason.PERSISTED_QUERY, "persisted query without query text");
        }
        throw new Denied(FenceReason.UNPARSEABLE, "request carries no query");
    }

    private static String operationName(Val value) throws Denied {
        if (value == null || value instanceof Val.Null) {
            return null;
        }
        if (value instanceof Val.Str name) {
            return name.text();
        }
        throw new Denied(FenceReason.UNPARSEABLE, "operationName is not a string");
    }

    /** Variables: an object, null/absent (none), or a JSON string holding an object (some clients). */
    private static Val.ObjV variables(Val value, ParserSetup setup) throws Denied {
        if (value == null || value instanceof Val.Null) {
            return Val.EMPTY_OBJECT;
        }
        if (value instanceof Val.Str text) {
            return variables(parseJson(text.text(), setup, "variables"), setup);
        }
        if (value instanceof Val.ObjV object) {
            return object;
        }
        throw new Denied(FenceReason.UNPARSEABLE, "variables is not an object");
    }

    private static Val parseJson(String text, ParserSetup setup, String what) throws Denied {
        try {
            return setup.json().read(text);
        } catch (JsonValues.JsonProblem e) {
            throw new Denied(FenceReason.UNPARSEABLE, what + " is not valid json");
        }
    }

    /** The URL-decoded parameters; a parameter given twice is ambiguous and denied. */
    private static Map<String, String> urlParameters(String urlQuery) throws Denied {
        Map<String, String> params = new HashMap<>();
        if (urlQuery == null || urlQuery.isEmpty()) {
            return params;
        }
        for (String pair : urlQuery.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (params.put(key, value) != null && GRAPHQL_PARAMS.contains(key)) {
                throw new Denied(FenceReason.UNPARSEABLE, "url parameter " + Reason.quote(key) + " is given twice");
            }
        }
        return params;
    }

    private static String decode(String text) throws Denied {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new Denied(FenceReason.UNPARSEABLE, "url query is not valid percent-encoding");
        }
    }

    private static String mediaType(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semicolon = contentType.indexOf(';');
        String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
        return type.trim().toLowerCase(Locale.ROOT);
    }

    private static String utf8(byte[] body) throws Denied {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body == null ? new byte[0] : body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new Denied(FenceReason.UNPARSEABLE, "body is not valid utf-8");
        }
    }
}
