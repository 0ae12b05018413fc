package dev.stockade.policy.model.internal;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.stockade.policy.model.ParsedDocument;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import dev.stockade.policy.model.SourceMap;
import dev.stockade.policy.model.SourcePosition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML or JSON text into Jackson trees with a streaming parser, recording where every node was
 * written, under hard limits: nothing the text says can make reading throw, recurse without bound or
 * allocate without bound. Limits are documented in docs/policy-reference.md.
 */
public final class TreeReader {
    /** Largest document accepted, in chars (1 MiB). */
    public static final int MAX_CHARS = 1 << 20;
    /** Deepest nesting of objects and arrays accepted. */
    public static final int MAX_DEPTH = 64;
    /** Most nodes (objects, arrays, scalars) accepted in one text. */
    public static final int MAX_NODES = 100_000;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final StreamReadConstraints CONSTRAINTS = StreamReadConstraints.builder()
            .maxNestingDepth(MAX_DEPTH + 8)
            .maxStringLength(MAX_CHARS)
            .maxNumberLength(100)
            .maxNameLength(1024)
            .maxDocumentLength(MAX_CHARS * 4L)
            .build();
    private static final YAMLFactory YAML = YAMLFactory.builder()
            .loaderOptions(loaderOptions())
            .streamReadConstraints(CONSTRAINTS)
            .build();
    private static final JsonFactory JSON = JsonFactory.builder().streamReadConstraints(CONSTRAINTS).build();

    private final String sourceName;
    private final String text;
    private final List<Problem> problems = new ArrayList<>();
    private SourceMap.Builder map = new SourceMap.Builder();
    private int nodes;
    private final boolean json;

    /** Thrown inside the reader only, to stop at a limit; never escapes. */
    private static final class Stop extends RuntimeException {
        Stop() {
            super(null, null, false, false);
        }
    }

    private TreeReader(String sourceName, String text, boolean json) {
        this.sourceName = sourceName;
        this.text = text;
        this.json = json;
    }

    private static LoaderOptions loaderOptions() {
        LoaderOptions o = new LoaderOptions();
        o.setCodePointLimit(MAX_CHARS + 1);
        o.setMaxAliasesForCollections(10);
        o.setNestingDepthLimit(MAX_DEPTH + 8);
        o.setAllowRecursiveKeys(false);
        o.setAllowDuplicateKeys(true); // duplicates are reported by this reader, with their position
        return o;
    }

    /** Reads one document; a second document in the text is a problem. */
    public static ParsedDocument readOne(String sourceName, String text) {
        return readEither(sourceName, text, false).get(0);
    }

    /** Reads a stream of documents separated by {@code ---}; always at least one result. */
    public static List<ParsedDocument> readAll(String sourceName, String text) {
        return readEither(sourceName, text, true);
    }

    /**
     * Text that starts with a bracket is read as JSON (better messages for JSON); if that fails but the
     * text is valid YAML (a flow mapping such as {@code {name: p}}), the YAML reading wins.
     */
    private static List<ParsedDocument> readEither(String sourceName, String text, boolean stream) {
        if (text == null || text.length() > MAX_CHARS || !looksLikeJson(text)) {
            return new TreeReader(sourceName, text, false).read(stream);
        }
        List<ParsedDocument> json = new TreeReader(sourceName, text, true).read(stream);
        boolean syntax = json.stream().flatMap(d -> d.problems().stream()).anyMatch(p -> ProblemCode.SYNTAX.is(p));
        if (!syntax) {
            return json;
        }
        List<ParsedDocument> yaml = new TreeReader(sourceName, text, false).read(stream);
        boolean yamlSyntax = yaml.stream().flatMap(d -> d.problems().stream()).anyMatch(p -> ProblemCode.SYNTAX.is(p));
        return yamlSyntax ? json : yaml;
    }

    private List<ParsedDocument> read(boolean stream) {
        List<ParsedDocument> docs = new ArrayList<>();
        String safeText = text == null ? "" : text;
        if (text == null) {
            problems.add(Problem.error(ProblemCode.EMPTY_DOCUMENT, "", "document is missing", null));
            return List.of(done(safeText, null));
        }
        if (text.length() > MAX_CHARS) {
            problems.add(Problem.error(ProblemCode.DOCUMENT_TOO_LARGE, "",
                    "document has " + text.length() + " characters, more than the limit of " + MAX_CHARS,
                    "split the policy or remove unused entries"));
            return List.of(done(safeText, null));
        }
        Problem control = ControlCharacters.first(text);
        if (control != null) {
            problems.add(control);
            return List.of(done(safeText, null));
        }
        try (JsonParser parser = json ? JSON.createParser(text) : YAML.createParser(text)) {
            while (true) {
                JsonNode root = null;
                boolean ended = false;
                try {
                    JsonToken t = parser.nextToken();
                    if (t == null) {
                        ended = true;
                    } else {
                        root = value(parser, t, "", 0);
                    }
                } catch (Stop stop) {
                    root = null;
                    ended = true;
                } catch (JsonProcessingException e) {
                    problems.add(syntax(e));
                    root = null;
                    ended = true;
                }
                if (ended && root == null) {
                    if (!docs.isEmpty() && problems.isEmpty()) {
                        break; // normal end of a stream
                    }
                    if (problems.isEmpty()) {
                        problems.add(Problem.error(ProblemCode.EMPTY_DOCUMENT, "", "document is empty", null)
                                .at(new SourcePosition(1, 1)));
                    }
                    docs.add(done(safeText, null));
                    break;
                }
                if (!stream) {
                    checkSingle(parser);
                    docs.add(done(safeText, root));
                    break;
                }
                docs.add(done(safeText, root));
            }
        } catch (IOException | RuntimeException e) {
            // INVARIANT: reading never throws for user input; anything unexpected is a syntax problem.
            problems.add(Problem.error(ProblemCode.SYNTAX, "", "document cannot be read", null).at(new SourcePosition(1, 1)));
            docs.add(done(safeText, null));
        }
        return docs;
    }

    private void checkSingle(JsonParser parser) {
        try {
            if (parser.nextToken() != null) {
                problems.add(Problem.error(ProblemCode.MULTIPLE_DOCUMENTS, "", "text holds more than one document",
                        "keep one policy per file").at(position(parser.currentTokenLocation())));
            }
        } catch (IOException | RuntimeException e) {
            problems.add(Problem.error(ProblemCode.MULTIPLE_DOCUMENTS, "", "text holds more than one document", null));
        }
    }

    private ParsedDocument done(String safeText, JsonNode root) {
        ParsedDocument d = new ParsedDocument(sourceName, safeText, root, map.build(), List.copyOf(problems));
        problems.clear();
        map = new SourceMap.Builder();
        return d;
    }

    private static boolean looksLikeJson(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c) && c != '\uFEFF') {
                return c == '{' || c == '[';
            }
        }
        return false;
    }

    private Problem syntax(JsonProcessingException e) {
        if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
            // SnakeYAML knows where the problem is (a tab in an indent, say); Jackson's location is where the
            // token it was reading started.
            Mark mark = marked.getProblemMark();
            String what = marked.getProblem() == null ? "syntax error" : marked.getProblem();
            String context = marked.getContext() == null ? "" : " (" + marked.getContext() + ")";
            return Problem.error(ProblemCode.SYNTAX, "", (what + context).lines().findFirst().orElse("syntax error").strip(), null)
                    .at(new SourcePosition(mark.getLine() + 1, mark.getColumn() + 1));
        }
        String raw = e.getOriginalMessage() == null ? "syntax error" : e.getOriginalMessage();
        String first = raw.lines().findFirst().orElse("syntax error").strip();
        String message = first.isEmpty() ? "syntax error" : Character.toLowerCase(first.charAt(0)) + first.substring(1);
        if (message.endsWith(".")) {
            message = message.substring(0, message.length() - 1);
        }
        ProblemCode code = e instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException ? ProblemCode.LIMIT_EXCEEDED : ProblemCode.SYNTAX;
        return Problem.error(code, "", message, null).at(position(e.getLocation()));
    }

    private static SourcePosition position(JsonLocation l) {
        if (l == null || l.getLineNr() < 1) {
            return new SourcePosition(0, 0);
        }
        return new SourcePosition(l.getLineNr(), Math.max(1, l.getColumnNr()));
    }

    private void count(JsonParser p, String pointer) {
        if (++nodes > MAX_NODES) {
            problems.add(Problem.error(ProblemCode.TOO_MANY_NODES, pointer,
                    "document has more than " + MAX_NODES + " values", null).at(position(p.currentTokenLocation())));
            throw new Stop();
        }
    }

    private JsonNode value(JsonParser p, JsonToken t, String pointer, int depth) throws IOException {
        SourcePosition here = position(p.currentTokenLocation());
        map.valuePosition(pointer, here);
        map.position(pointer, here);
        count(p, pointer);
        switch (t) {
            case START_OBJECT:
            case START_ARRAY:
                if (depth >= MAX_DEPTH) {
                    problems.add(Problem.error(ProblemCode.TOO_DEEP, pointer,
                            "document nests deeper than " + MAX_DEPTH + " levels", null).at(here));
                    throw new Stop();
                }
                return t == JsonToken.START_OBJECT ? object(p, pointer, depth) : array(p, pointer, depth);
            case VALUE_STRING:
                if (p instanceof YAMLParser y && y.isCurrentAlias()) {
                    problems.add(Problem.error(ProblemCode.YAML_ALIAS, pointer,
                            "yaml alias " + Quoted.input("*" + p.getText()) + " is not supported",
                            "write the value out in full").at(here));
                    return NODES.nullNode();
                }
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                if (!json && !p.getText().matches("[-+]?[0-9]+")) {
                    return NODES.textNode(p.getText()); // YAML 1.1 forms (0x1f, 1_000, 0b1, 1:20) stay text
                }
                return switch (p.getNumberType()) {
                    case INT -> NODES.numberNode(p.getIntValue());
                    case LONG -> NODES.numberNode(p.getLongValue());
                    default -> NODES.numberNode(p.getBigIntegerValue());
                };
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
            case VALUE_FALSE:
                // Booleans are `true` and `false` only: YAML 1.1's yes/no/on/off/y/n (and True, FALSE) stay text,
                // so that the schema refuses them where a boolean is expected instead of reading a guess.
                if (!json && !p.getText().equals("true") && !p.getText().equals("false")) {
                    return NODES.textNode(p.getText());
                }
                return NODES.booleanNode(t == JsonToken.VALUE_TRUE);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                problems.add(Problem.error(ProblemCode.UNSUPPORTED_VALUE, pointer, "unsupported yaml value such as `!!binary`",
                        "write the value as a plain string").at(here));
                return NODES.nullNode();
        }
    }

    private ObjectNode object(JsonParser p, String pointer, int depth) throws IOException {
        ObjectNode node = NODES.objectNode();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            String child = pointer + "/" + escape(name);
            SourcePosition keyAt = position(p.currentTokenLocation());
            boolean duplicate = node.has(name);
            if (duplicate) {
                problems.add(Problem.error(ProblemCode.DUPLICATE_KEY, child, "key " + Quoted.input(name) + " appears more than once",
                        "remove one of them").at(keyAt));
            } else {
                map.position(child, keyAt);
            }
            JsonToken v = p.nextToken();
            JsonNode value = duplicate ? valueDiscarding(p, v, child, depth + 1) : value(p, v, child, depth + 1);
            if (!duplicate) {
                node.set(name, value);
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new Stop();
        }
        return node;
    }

    /** Reads a duplicate key's value for its problems and limits, without recording positions over the first. */
    private JsonNode valueDiscarding(JsonParser p, JsonToken t, String pointer, int depth) throws IOException {
        SourceMap.Builder saved = map;
        map = new SourceMap.Builder();
        try {
            return value(p, t, pointer, depth);
        } finally {
            map = saved;
        }
    }

    private ArrayNode array(JsonParser p, String pointer, int depth) throws IOException {
        ArrayNode node = NODES.arrayNode();
        JsonToken t;
        int i = 0;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == null) {
                throw new Stop();
            }
            node.add(value(p, t, pointer + "/" + i, depth + 1));
            i++;
        }
        return node;
    }

    /** RFC 6901 escaping of one reference token. */
    public static String escape(String token) {
        if (token.indexOf('~') < 0 && token.indexOf('/') < 0) {
            return token;
        }
        return token.replace("~", "~0").replace("/", "~1");
    }
}
