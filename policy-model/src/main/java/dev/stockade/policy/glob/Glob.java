package dev.stockade.policy.glob;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A compiled pattern of one of the policy's pattern languages ({@link GlobKind}). Compiled once,
 * immutable and thread-safe; {@link #matches} runs in time linear in the input (no backtracking) and
 * allocates nothing for patterns under 64 tokens and ASCII input. Semantics: docs/globs.md.
 */
public final class Glob {
    private final GlobKind kind;
    private final String text;
    private final Program program;
    /** The normalised pattern when it has no wildcard, compared directly; {@code null} otherwise. */
    private final String literal;
    private final List<String> labels;

    private Glob(GlobKind kind, String text, int[] tokens, char separator, List<String> labels) {
        this.kind = kind;
        this.text = text;
        this.labels = labels;
        boolean wild = false;
        for (int t : tokens) {
            wild |= t < 0;
        }
        if (wild) {
            this.program = new Program(tokens, separator);
            this.literal = null;
        } else {
            StringBuilder sb = new StringBuilder(tokens.length);
            for (int t : tokens) {
                sb.append((char) t);
            }
            this.program = null;
            this.literal = sb.toString();
        }
    }

    /**
     * Compiles {@code text} as a pattern of {@code kind}. Never throws: a {@code null} or invalid text
     * gives a result with errors (offsets are 0-based chars into {@code text}) and no glob.
     */
    public static GlobResult compile(GlobKind kind, String text) {
        List<GlobError> errors = new ArrayList<>();
        if (kind == null) {
            errors.add(new GlobError(0, "no pattern kind given"));
            return new GlobResult(null, errors);
        }
        if (text == null) {
            errors.add(new GlobError(0, "pattern is missing"));
            return new GlobResult(null, errors);
        }
        GlobCompiler.Compiled compiled;
        try {
            compiled = GlobCompiler.compile(kind, text, errors);
        } catch (RuntimeException e) {
            // Fail closed: a pattern the compiler cannot handle is a pattern error, never an exception.
            errors.add(new GlobError(0, "unreadable pattern"));
            compiled = null;
        }
        if (compiled == null && errors.isEmpty()) {
            errors.add(new GlobError(0, "unreadable pattern"));
        }
        if (!errors.isEmpty()) {
            errors.sort(Comparator.comparingInt(GlobError::offset));
            return new GlobResult(null, errors);
        }
        return new GlobResult(new Glob(kind, text, compiled.tokens(), compiled.separator(), compiled.labels()),
                errors);
    }

    /**
     * Whether {@code input} matches. For {@link GlobKind#DOMAIN} the input is a host: compared
     * case-insensitively, a trailing dot ignored, non-ASCII hosts IDNA-normalised first, and a host with
     * an empty label matches nothing. For the other kinds the input is compared as given.
     */
    public boolean matches(CharSequence input) {
        if (input == null) {
            return false;
        }
        if (kind != GlobKind.DOMAIN) {
            return literal != null ? literal.contentEquals(input) : program.matches(input, 0, input.length(), false);
        }
        int end = input.length();
        if (end > 0 && input.charAt(end - 1) == '.') {
            end--;
        }
        if (end == 0) {
            return false;
        }
        for (int i = 0; i < end; i++) {
            char c = input.charAt(i);
            if (c >= 0x80) {
                return matchesInternationalHost(input);
            }
            if (c == '.' && (i == 0 || input.charAt(i - 1) == '.')) {
                return false;
            }
        }
        return matchesHost(input, end);
    }

    private boolean matchesHost(CharSequence host, int end) {
        if (literal == null) {
            return program.matches(host, 0, end, true);
        }
        if (literal.length() != end) {
            return false;
        }
        for (int i = 0; i < end; i++) {
            if (literal.charAt(i) != Program.lower(host.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private boolean matchesInternationalHost(CharSequence input) {
        String ascii = Idna.toAscii(input.toString());
        if (ascii == null) {
            return false;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if (ascii.charAt(i) >= 0x80) {
                return false;
            }
        }
        return matches(ascii);
    }

    /**
     * The most work one {@link #matches} of an input of {@code length} chars can cost, in 64-bit word
     * operations: {@code length × ⌈(tokens + 1) / 64⌉} for a pattern with wildcards, {@code length} for a
     * literal. Hosts use it to bound the matching work of one request.
     */
    public long cost(int length) {
        return program == null ? length : program.cost(length);
    }

    /** The pattern as written. */
    public String text() {
        return text;
    }

    /** The pattern language. */
    public GlobKind kind() {
        return kind;
    }

    /** Whether the pattern has no wildcard (it matches exactly one normalised input). */
    public boolean isLiteral() {
        return literal != null;
    }

    /**
     * For {@link GlobKind#DOMAIN}: the normalised labels, leftmost first ({@code ["*", "example", "com"]},
     * {@code ["api-*", "example", "com"]}); empty for the other kinds.
     */
    public List<String> labels() {
        return labels;
    }

    @Override
    public String toString() {
        return kind + ":" + text;
    }
}
