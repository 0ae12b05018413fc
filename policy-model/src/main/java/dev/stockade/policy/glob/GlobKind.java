package dev.stockade.policy.glob;

/** The four pattern languages of a policy; each compiles with its own rules (see docs/globs.md). */
public enum GlobKind {
    /** A domain pattern: case-insensitive, IDNA-normalised, {@code *} by label. */
    DOMAIN,
    /** An HTTP path glob: case-sensitive, {@code *} within a segment, {@code **} across segments. */
    PATH,
    /** A GraphQL operation or field name glob: case-sensitive, {@code *} any sequence. */
    NAME,
    /** An argument value glob: case-sensitive, {@code *} any sequence, {@code \*} and {@code \\} escapes. */
    VALUE
}
