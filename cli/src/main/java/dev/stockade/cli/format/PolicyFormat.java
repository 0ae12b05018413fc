package dev.stockade.cli.format;

import dev.stockade.policy.model.Documents;
import dev.stockade.policy.model.ParsedDocument;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.api.lowlevel.Present;
import org.snakeyaml.engine.v2.api.lowlevel.Serialize;
import org.snakeyaml.engine.v2.comments.CommentType;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.events.CommentEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * {@code stockade policy fmt}: a policy file rewritten in canonical form (keys in {@link KeyOrder}, two-space
 * indentation, {@link CanonicalTree}'s quoting and flow rules) with every comment kept. Checks run before and
 * after, so that a file is either formatted without losing anything or refused with the reason: it must read
 * without problems first, and the formatted text must read to the same tree and carry the same comments.
 */
public final class PolicyFormat {
    /** The code of refusals that are about formatting, not about the policy (documented in docs/cli.md). */
    static final String REFUSED = "fmt-refused";

    private PolicyFormat() {
    }

    /** Formats {@code text} (the content of {@code sourceName}); never throws for user input. */
    public static FormatOutcome format(String sourceName, String text) {
        List<ParsedDocument> read = Documents.parseAll(sourceName, text);
        List<Problem> problems = new ArrayList<>();
        read.forEach(doc -> doc.problems().stream().filter(Problem::isError).forEach(problems::add));
        if (!problems.isEmpty()) {
            return new FormatOutcome.Refused(problems);
        }
        try {
            List<Node> documents = new ArrayList<>();
            for (Node root : new Compose(loadSettings(sourceName)).composeAllFromString(text)) {
                Optional<Problem> anchor = CanonicalTree.firstAnchor(root);
                if (anchor.isPresent()) {
                    return new FormatOutcome.Refused(List.of(anchor.get()));
                }
                CanonicalTree.canonicalize(root, KeyOrder.POLICY);
                documents.add(root);
            }
            String out = documents.isEmpty() ? text : present(documents);
            Optional<Problem> lost = check(sourceName, text, out);
            return lost.<FormatOutcome>map(p -> new FormatOutcome.Refused(List.of(p)))
                    .orElseGet(() -> new FormatOutcome.Formatted(out, !out.equals(text)));
        } catch (MarkedYamlEngineException e) {
            return new FormatOutcome.Refused(List.of(at(e.getProblemMark(), ProblemCode.SYNTAX.code(),
                    "the file does not parse as yaml: " + e.getProblem())));
        } catch (YamlEngineException e) {
            return new FormatOutcome.Refused(List.of(Problem.error(REFUSED, "", "cannot format: " + e.getMessage(), null)));
        } catch (RuntimeException e) {
            // snakeyaml-engine's comment support fails on some placements (a ClassCastException on a comment right
            // after `[`, `{` or `---`): the file read fine, so refuse to format it rather than fail or guess
            return new FormatOutcome.Refused(List.of(Problem.error(REFUSED, "",
                    "cannot format: the yaml library could not place this file's comments",
                    "a comment right after `[`, `{` or `---` is a known cause: move it to a line of its own")));
        }
    }

    private static LoadSettings loadSettings(String sourceName) {
        return LoadSettings.builder().setLabel(sourceName).setParseComments(true).setAllowDuplicateKeys(false).build();
    }

    private static String present(List<Node> documents) {
        DumpSettings settings = DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).setIndent(2)
                .setIndicatorIndent(2).setIndentWithIndicator(true).setDumpComments(true).setSplitLines(false)
                .setWidth(Integer.MAX_VALUE).build();
        List<Event> events = new Serialize(settings).serializeAll(documents);
        return new Present(settings).emitToString(events.iterator());
    }

    /**
     * The guard behind "formatting never changes meaning": the formatted text must read to the same trees as
     * the original, and carry the same comments; otherwise the first loss, and the file stays as it is.
     */
    static Optional<Problem> check(String sourceName, String before, String after) {
        List<ParsedDocument> read = Documents.parseAll(sourceName, before);
        List<ParsedDocument> reread = Documents.parseAll(sourceName, after);
        boolean same = reread.size() == read.size();
        for (int i = 0; same && i < read.size(); i++) {
            same = reread.get(i).problems().stream().noneMatch(Problem::isError)
                    && Objects.equals(read.get(i).root(), reread.get(i).root());
        }
        if (!same) {
            return Optional.of(Problem.error(REFUSED, "", "formatting would change what the file says; left as it is",
                    "please report this file"));
        }
        List<CommentEvent> kept = comments(sourceName, after);
        for (CommentEvent comment : comments(sourceName, before)) {
            if (!removeSame(kept, comment)) {
                return Optional.of(at(comment.getStartMark(), REFUSED, "formatting would lose this comment",
                        "move the comment to a line of its own above the key it explains"));
            }
        }
        return Optional.empty();
    }

    private static List<CommentEvent> comments(String sourceName, String text) {
        List<CommentEvent> out = new ArrayList<>();
        for (Event e : new Parse(loadSettings(sourceName)).parseString(text)) {
            if (e instanceof CommentEvent c && c.getCommentType() != CommentType.BLANK_LINE) {
                out.add(c);
            }
        }
        return out;
    }

    private static boolean removeSame(List<CommentEvent> pool, CommentEvent wanted) {
        for (int i = 0; i < pool.size(); i++) {
            if (pool.get(i).getValue().strip().equals(wanted.getValue().strip())) {
                pool.remove(i);
                return true;
            }
        }
        return false;
    }

    /** A problem without help at the engine's {@code mark}. */
    static Problem at(Optional<Mark> mark, String code, String message) {
        return at(mark, code, message, null);
    }

    /** A problem with {@code help} at the engine's {@code mark} (0-based) as the reader's 1-based line and column. */
    static Problem at(Optional<Mark> mark, String code, String message, String help) {
        Problem p = Problem.error(code, "", message, help);
        return mark.map(m -> new Problem(p.code(), p.severity(), p.pointer(), m.getLine() + 1, m.getColumn() + 1,
                p.message(), p.help())).orElse(p);
    }
}
