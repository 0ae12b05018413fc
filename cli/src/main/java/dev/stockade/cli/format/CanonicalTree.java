package dev.stockade.cli.format;

import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import dev.stockade.policy.text.Quoted;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.comments.CommentLine;
import org.snakeyaml.engine.v2.comments.CommentType;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * The canonical style of a policy's YAML node tree, applied in place: mapping keys in {@link KeyOrder}, every
 * mapping in block style, a list of scalars in flow style ({@code [a, b]}) unless one of its items carries a
 * comment, everything else in block style; a quoted string unquoted when it reads the same plain in YAML 1.1
 * and 1.2, otherwise double-quoted; plain and block ({@code |}, {@code >}) scalars kept as written, since
 * their text already reads as the author meant.
 */
final class CanonicalTree {
    /** Text that is a string, and the same string, when written plain under both YAML 1.1 and 1.2 readers. */
    private static final Pattern PLAIN_SAFE = Pattern.compile("[A-Za-z_/][A-Za-z0-9_./*@+ -]*[A-Za-z0-9_./*@+-]|[A-Za-z_/]");
    /** Words a YAML 1.1 or 1.2 reader takes for a boolean or null when plain. */
    private static final Set<String> SPECIAL = Set.of("y", "n", "yes", "no", "on", "off", "true", "false", "null");

    private CanonicalTree() {
    }

    /** The first anchor in the tree, as a problem: a policy never uses anchors or aliases (the reader refuses aliases). */
    static Optional<Problem> firstAnchor(Node node) {
        if (node.getAnchor().isPresent()) {
            return Optional.of(PolicyFormat.at(node.getStartMark(), ProblemCode.YAML_ALIAS.code(),
                    "yaml anchor " + Quoted.input("&" + node.getAnchor().get().getValue()) + " is not supported",
                    "write the value out where it is used: a policy has no anchors or aliases"));
        }
        for (Node child : children(node)) {
            Optional<Problem> found = firstAnchor(child);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static List<Node> children(Node node) {
        List<Node> out = new ArrayList<>();
        if (node instanceof MappingNode m) {
            m.getValue().forEach(t -> {
                out.add(t.getKeyNode());
                out.add(t.getValueNode());
            });
        } else if (node instanceof SequenceNode s) {
            out.addAll(s.getValue());
        }
        return out;
    }

    /** Puts {@code node} (an object of kind {@code order}) and everything below it into canonical form. */
    static void canonicalize(Node node, KeyOrder order) {
        canonicalize(node, order, false);
    }

    /** {@code item}: the node is an element of a list, whose first comments speak of the whole element. */
    private static void canonicalize(Node node, KeyOrder order, boolean item) {
        if (node instanceof MappingNode m) {
            mapping(m, order, item);
        } else if (node instanceof SequenceNode s) {
            sequence(s, order);
        }
    }

    private static void mapping(MappingNode m, KeyOrder order, boolean item) {
        m.setFlowStyle(FlowStyle.BLOCK);
        List<NodeTuple> tuples = new ArrayList<>();
        for (NodeTuple t : m.getValue()) {
            canonicalize(t.getValueNode(), order.child(keyOf(t)), false);
            Node keyNode = scalar(t.getKeyNode());
            if (!(t.getValueNode() instanceof ScalarNode) && !isFlow(t.getValueNode())) {
                // the emitter indents a block collection twice after a comment on its key's line
                lineAbove(keyNode, keyNode.getInLineComments());
                keyNode.setInLineComments(new ArrayList<>());
            }
            tuples.add(new NodeTuple(keyNode, scalar(t.getValueNode())));
        }
        List<CommentLine> header = header(tuples, item);
        tuples.sort(Comparator.comparingInt(t -> order.rank(keyOf(t))));
        if (!header.isEmpty()) {
            Node first = tuples.get(0).getKeyNode();
            List<CommentLine> merged = new ArrayList<>(header);
            merged.addAll(orEmpty(first.getBlockComments()));
            first.setBlockComments(merged);
        }
        m.setValue(tuples);
        if (!tuples.isEmpty()) {
            moveInline(m, tuples.get(0).getKeyNode(), tuples.get(0).getValueNode());
        }
    }

    private static void sequence(SequenceNode s, KeyOrder order) {
        List<Node> items = new ArrayList<>();
        boolean scalars = !s.getValue().isEmpty();
        for (Node element : s.getValue()) {
            canonicalize(element, order, true);
            if (element instanceof MappingNode m && !m.getValue().isEmpty()) {
                // after "- " a blank line would break the element's first line (and not read back the same)
                Node first = m.getValue().get(0).getKeyNode();
                first.setBlockComments(new ArrayList<>(orEmpty(first.getBlockComments()).stream()
                        .filter(c -> c.getCommentType() != CommentType.BLANK_LINE).toList()));
            }
            items.add(scalar(element));
            scalars &= element instanceof ScalarNode && !commented(element);
        }
        s.getValue().clear();
        s.getValue().addAll(items);
        s.setFlowStyle(scalars ? FlowStyle.FLOW : FlowStyle.BLOCK);
        if (!scalars && !items.isEmpty()) {
            moveInline(s, items.get(0), items.get(0));
        }
    }

    /**
     * The comment written after a flow collection ({@code - {pattern: a.com}  # why}) is kept on the first line
     * of its block form: after the first scalar value, else above the first key or item. The emitter writes no
     * comment after a block collection, so leaving it there would lose it.
     */
    private static void moveInline(Node collection, Node firstKey, Node firstValue) {
        List<CommentLine> inline = orEmpty(collection.getInLineComments());
        if (inline.isEmpty()) {
            return;
        }
        collection.setInLineComments(new ArrayList<>());
        if (firstValue instanceof ScalarNode) {
            List<CommentLine> merged = new ArrayList<>(orEmpty(firstValue.getInLineComments()));
            merged.addAll(inline);
            firstValue.setInLineComments(merged);
            return;
        }
        lineAbove(firstKey, inline);
    }

    /** Adds {@code comments} as comment lines of their own right above {@code node}. */
    private static void lineAbove(Node node, List<CommentLine> comments) {
        if (orEmpty(comments).isEmpty()) {
            return;
        }
        List<CommentLine> above = new ArrayList<>(orEmpty(node.getBlockComments()));
        comments.forEach(c -> above.add(new CommentLine(c.getStartMark(), c.getEndMark(), c.getValue(), CommentType.BLOCK)));
        node.setBlockComments(above);
    }

    private static boolean isFlow(Node node) {
        return node instanceof SequenceNode s && s.getFlowStyle() == FlowStyle.FLOW;
    }

    private static String keyOf(NodeTuple t) {
        return t.getKeyNode() instanceof ScalarNode k ? k.getValue() : "";
    }

    /**
     * The comment lines that open the mapping rather than its first key: those up to the last blank line
     * above the first key, or all of them for an element of a list ({@code - # why} speaks of the element).
     * They stay at the top when the keys are reordered.
     */
    private static List<CommentLine> header(List<NodeTuple> tuples, boolean item) {
        if (tuples.isEmpty()) {
            return List.of();
        }
        Node first = tuples.get(0).getKeyNode();
        List<CommentLine> lines = orEmpty(first.getBlockComments());
        int cut = item ? lines.size() - 1 : -1;
        for (int i = 0; !item && i < lines.size(); i++) {
            if (lines.get(i).getCommentType() == CommentType.BLANK_LINE) {
                cut = i;
            }
        }
        if (cut < 0) {
            return List.of();
        }
        first.setBlockComments(new ArrayList<>(lines.subList(cut + 1, lines.size())));
        return new ArrayList<>(lines.subList(0, cut + 1));
    }

    private static List<CommentLine> orEmpty(List<CommentLine> lines) {
        return lines == null ? List.of() : lines;
    }

    private static boolean commented(Node node) {
        return !orEmpty(node.getBlockComments()).isEmpty() || !orEmpty(node.getInLineComments()).isEmpty()
                || !orEmpty(node.getEndComments()).isEmpty();
    }

    /** A scalar in its canonical quoting (same value, same comments); any other node as it is. */
    private static Node scalar(Node node) {
        if (!(node instanceof ScalarNode s) || !quoted(s.getScalarStyle())) {
            return node;
        }
        ScalarStyle style = plainSafe(s.getValue()) ? ScalarStyle.PLAIN : ScalarStyle.DOUBLE_QUOTED;
        if (style == s.getScalarStyle()) {
            return node;
        }
        ScalarNode out = new ScalarNode(Tag.STR, true, s.getValue(), style, s.getStartMark(), s.getEndMark());
        out.setBlockComments(s.getBlockComments());
        out.setInLineComments(s.getInLineComments());
        out.setEndComments(s.getEndComments());
        return out;
    }

    private static boolean quoted(ScalarStyle style) {
        return style == ScalarStyle.SINGLE_QUOTED || style == ScalarStyle.DOUBLE_QUOTED;
    }

    /** Whether {@code value} reads as this very string when written plain, under YAML 1.1 and 1.2 alike. */
    static boolean plainSafe(String value) {
        return PLAIN_SAFE.matcher(value).matches() && !SPECIAL.contains(value.toLowerCase(Locale.ROOT));
    }
}
