package dev.stockade.policy.glob;

/** One token of a pattern as the grammar read it, with its 0-based char offset in the pattern text. */
record Piece(Type type, String text, int offset) {

    enum Type { DOUBLE_STAR, STAR, ESCAPED, BACKSLASH, DOT, SLASH, CHAR }

    boolean isStar() {
        return type == Type.STAR || type == Type.DOUBLE_STAR;
    }
}
