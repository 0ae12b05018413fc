package dev.stockade.policy.glob;

import dev.stockade.policy.text.Quoted;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns the pieces of a pattern into tokens for {@link Program}, applying the rules of each kind. */
final class GlobCompiler {
    /** Longest pattern accepted, in chars; longer patterns are refused rather than compiled. */
    static final int MAX_LENGTH = 4096;
    private static final int MAX_HOST = 253;
    private static final int MAX_LABEL = 63;

    /** The tokens of a valid pattern, its separator, and (domains only) its normalised labels. */
    record Compiled(int[] tokens, char separator, List<String> labels) {
    }

    private final List<GlobError> errors;

    private GlobCompiler(List<GlobError> errors) {
        this.errors = errors;
    }

    static Compiled compile(GlobKind kind, String text, List<GlobError> errors) {
        if (text.length() > MAX_LENGTH) {
            errors.add(new GlobError(MAX_LENGTH, "pattern is longer than " + MAX_LENGTH + " characters"));
            return null;
        }
        List<Piece> pieces = PieceReader.read(text, errors);
        GlobCompiler c = new GlobCompiler(errors);
        return switch (kind) {
            case DOMAIN -> c.domain(text, pieces);
            case PATH -> c.path(text, pieces);
            case NAME -> c.name(text, pieces);
            case VALUE -> c.value(pieces);
        };
    }

    private void error(int offset, String message) {
        errors.add(new GlobError(offset, message));
    }

    // ---- NAME ----------------------------------------------------------------------------------

    private Compiled name(String text, List<Piece> pieces) {
        if (text.isEmpty()) {
            error(0, "name glob is empty");
        }
        Tokens out = new Tokens();
        for (Piece p : pieces) {
            if (p.isStar()) {
                out.anyStar();
            } else if (p.type() == Piece.Type.CHAR && isNameChar(p.text())) {
                out.literal(p.text());
            } else {
                error(p.offset(), "character `" + p.text().substring(0, 1)
                        + "` cannot occur in a graphql name: use letters, digits, `_` and `*`");
            }
        }
        return new Compiled(out.toArray(), '\0', List.of());
    }

    private static boolean isNameChar(String s) {
        char c = s.charAt(0);
        return s.length() == 1 && (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
    }

    // ---- VALUE ---------------------------------------------------------------------------------

    private Compiled value(List<Piece> pieces) {
        Tokens out = new Tokens();
        for (Piece p : pieces) {
            switch (p.type()) {
                case STAR, DOUBLE_STAR -> out.anyStar();
                case ESCAPED -> out.literal(p.text().substring(1));
                case BACKSLASH -> error(p.offset(),
                        "lone backslash: write `\\\\` for a backslash or `\\*` for a star");
                default -> out.literal(p.text());
            }
        }
        return new Compiled(out.toArray(), '\0', List.of());
    }

    // ---- PATH ----------------------------------------------------------------------------------

    private Compiled path(String text, List<Piece> pieces) {
        if (text.isEmpty()) {
            error(0, "path glob is empty: start it with `/`");
            return null;
        }
        if (pieces.isEmpty() || pieces.get(0).type() != Piece.Type.SLASH) {
            error(0, "path glob must start with `/`");
        }
        Tokens out = new Tokens();
        Piece previous = null;
        for (Piece p : pieces) {
            switch (p.type()) {
                case STAR, DOUBLE_STAR -> {
                    if (previous != null && previous.isStar()) {
                        error(previous.offset(), "`" + previous.text() + p.text()
                                + "` is not a glob: use `*` within a segment or `**` across segments");
                    } else if (p.type() == Piece.Type.STAR) {
                        out.add(Program.SEG_STAR);
                    } else {
                        out.add(Program.ANY_STAR);
                    }
                }
                case ESCAPED, BACKSLASH -> error(p.offset(), "backslash cannot occur in a path glob");
                case CHAR -> pathChar(p, out);
                default -> out.literal(p.text());
            }
            previous = p;
        }
        return new Compiled(out.toArray(), '/', List.of());
    }

    private void pathChar(Piece p, Tokens out) {
        char c = p.text().charAt(0);
        if (c <= ' ' || c == 0x7f) {
            error(p.offset(), "whitespace or control character cannot occur in a path glob");
        } else if (c == '?' || c == '#') {
            error(p.offset(), "`" + c + "` cannot occur in a path glob: the query string and fragment are not part of the path");
        } else if (c > 0x7e) {
            error(p.offset(), "non-ascii character `" + p.text() + "` in a path glob: write it percent-encoded");
        } else {
            out.literal(p.text());
        }
    }

    // ---- DOMAIN --------------------------------------------------------------------------------

    private Compiled domain(String text, List<Piece> pieces) {
        if (text.isEmpty()) {
            error(0, "domain pattern is empty");
            return null;
        }
        List<List<Piece>> labels = splitLabels(pieces);
        if (labels == null) {
            return null;
        }
        if (labels.size() == 1 && labels.get(0).size() == 1 && labels.get(0).get(0).type() == Piece.Type.STAR
                && text.endsWith(".")) {
            // `*.` is what `*.{suffix}` becomes with an empty suffix: never let it mean every host
            error(0, "`*.` has no name after the wildcard label; write `*` to allow every host on purpose");
            return null;
        }
        List<String> normalised = new ArrayList<>();
        Tokens out = new Tokens();
        for (int i = 0; i < labels.size(); i++) {
            List<Piece> label = labels.get(i);
            if (i > 0) {
                out.literal(".");
            }
            if (label.size() == 1 && label.get(0).type() == Piece.Type.STAR) {
                if (i > 0) {
                    error(label.get(0).offset(), "`*` as a whole label is allowed only as the leftmost label");
                }
                normalised.add("*");
                // One or more whole labels: a non-empty run that cannot start with a dot.
                out.add(Program.ONE_NONSEP);
                out.add(Program.ANY_STAR);
                continue;
            }
            String norm = domainLabel(label);
            if (norm != null) {
                normalised.add(norm);
                for (int k = 0; k < norm.length(); k++) {
                    char c = norm.charAt(k);
                    out.add(c == '*' ? Program.SEG_STAR : c);
                }
            }
        }
        int length = String.join(".", normalised).length();
        if (length > MAX_HOST) {
            error(0, "domain pattern is longer than " + MAX_HOST + " characters");
        }
        return new Compiled(out.toArray(), '.', List.copyOf(normalised));
    }

    /** Splits at dots; refuses empty labels; a trailing dot (the root label) is dropped. */
    private List<List<Piece>> splitLabels(List<Piece> pieces) {
        List<List<Piece>> labels = new ArrayList<>();
        List<Piece> current = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
            Piece p = pieces.get(i);
            if (p.type() != Piece.Type.DOT) {
                current.add(p);
            } else if (current.isEmpty()) {
                error(p.offset(), i == 0 ? "domain pattern cannot start with `.`" : "empty label in domain pattern");
            } else {
                labels.add(current);
                current = new ArrayList<>();
            }
        }
        if (!current.isEmpty()) {
            labels.add(current);
        }
        return labels.isEmpty() ? null : labels;
    }

    /** A label without a whole-label star: IDNA-normalised, or with in-label stars, plain ASCII. */
    private String domainLabel(List<Piece> label) {
        boolean hasStar = false;
        boolean ok = true;
        StringBuilder raw = new StringBuilder();
        for (Piece p : label) {
            switch (p.type()) {
                case STAR -> {
                    hasStar = true;
                    raw.append('*');
                }
                case DOUBLE_STAR -> {
                    error(p.offset(), "`**` cannot occur in a domain pattern: a leftmost `*` already covers any depth");
                    ok = false;
                }
                case CHAR -> {
                    char c = p.text().charAt(0);
                    if (c == ':') {
                        error(p.offset(), "a port cannot be part of a domain pattern");
                        ok = false;
                    } else if (c < 0x80 && !isHostChar(c)) {
                        error(p.offset(), "character `" + p.text() + "` cannot occur in a domain pattern");
                        ok = false;
                    }
                    raw.append(p.text());
                }
                default -> {
                    error(p.offset(), "character `" + p.text().charAt(0) + "` cannot occur in a domain pattern");
                    ok = false;
                }
            }
        }
        if (!ok) {
            return null;
        }
        int offset = label.get(0).offset();
        String text = raw.toString();
        String ascii;
        if (hasStar) {
            for (Piece p : label) {
                if (p.type() == Piece.Type.CHAR && p.text().charAt(0) >= 0x80) {
                    error(p.offset(), "a label with `*` must be ascii: write the label in its `xn--` form");
                    return null;
                }
            }
            ascii = text.toLowerCase(Locale.ROOT);
        } else if (text.length() > MAX_LABEL && text.chars().allMatch(ch -> ch < 0x80)) {
            error(offset, "label " + Quoted.input(text) + " is longer than " + MAX_LABEL + " characters");
            return null;
        } else {
            ascii = Idna.toAscii(text);
            if (ascii == null) {
                error(offset, "label " + Quoted.input(text) + " is not a valid internationalised domain label (IDNA UTS #46)");
                return null;
            }
            for (int k = 0; k < ascii.length(); k++) {
                if (!isHostChar(ascii.charAt(k))) {
                    error(offset, "label " + Quoted.input(text) + " does not normalise to a valid host label");
                    return null;
                }
            }
        }
        if (ascii.length() > MAX_LABEL) {
            error(offset, "label " + Quoted.input(text) + " is longer than " + MAX_LABEL + " characters");
            return null;
        }
        return ascii;
    }

    private static boolean isHostChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    }

    /** A growable int array of tokens; consecutive any-stars collapse into one. */
    private static final class Tokens {
        private int[] data = new int[16];
        private int size;

        void add(int token) {
            if (size == data.length) {
                data = java.util.Arrays.copyOf(data, size * 2);
            }
            data[size++] = token;
        }

        void anyStar() {
            if (size == 0 || data[size - 1] != Program.ANY_STAR) {
                add(Program.ANY_STAR);
            }
        }

        void literal(String s) {
            for (int i = 0; i < s.length(); i++) {
                add(s.charAt(i));
            }
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(data, size);
        }
    }
}
