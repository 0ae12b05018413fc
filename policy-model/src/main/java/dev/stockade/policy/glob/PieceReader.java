package dev.stockade.policy.glob;

import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/** Runs the Glob grammar over a pattern and turns the parse tree into pieces with char offsets. */
final class PieceReader extends GlobBaseVisitor<Void> {
    private final List<Piece> pieces = new ArrayList<>();
    private final List<GlobError> errors = new ArrayList<>();
    private final int[] charOffsetOfCodePoint;

    private PieceReader(String text) {
        // ANTLR indexes code points; errors are reported in chars (what editors and Java strings count).
        int cps = text.codePointCount(0, text.length());
        charOffsetOfCodePoint = new int[cps + 1];
        int off = 0;
        for (int i = 0; i < cps; i++) {
            charOffsetOfCodePoint[i] = off;
            off += Character.charCount(text.codePointAt(off));
        }
        charOffsetOfCodePoint[cps] = text.length();
    }

    /** The pieces of {@code text}; grammar errors (there should be none: every char lexes) go to {@code errors}. */
    static List<Piece> read(String text, List<GlobError> errors) {
        PieceReader reader = new PieceReader(text);
        GlobLexer lexer = new GlobLexer(CharStreams.fromString(text));
        GlobParser parser = new GlobParser(new CommonTokenStream(lexer));
        BaseErrorListener listener = new BaseErrorListener() {
            @Override
            public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int column,
                    String msg, RecognitionException e) {
                reader.errors.add(new GlobError(reader.charOffset(column), "unreadable pattern"));
            }
        };
        lexer.removeErrorListeners();
        lexer.addErrorListener(listener);
        parser.removeErrorListeners();
        parser.addErrorListener(listener);
        reader.visit(parser.glob());
        errors.addAll(reader.errors);
        return reader.pieces;
    }

    private int charOffset(int codePointIndex) {
        int i = Math.max(0, Math.min(codePointIndex, charOffsetOfCodePoint.length - 1));
        return charOffsetOfCodePoint[i];
    }

    private Void add(Piece.Type type, ParserRuleContext ctx) {
        Token t = ctx.getStart();
        pieces.add(new Piece(type, t.getText(), charOffset(t.getStartIndex())));
        return null;
    }

    @Override
    public Void visitDoubleStar(GlobParser.DoubleStarContext ctx) {
        return add(Piece.Type.DOUBLE_STAR, ctx);
    }

    @Override
    public Void visitStar(GlobParser.StarContext ctx) {
        return add(Piece.Type.STAR, ctx);
    }

    @Override
    public Void visitEscaped(GlobParser.EscapedContext ctx) {
        return add(Piece.Type.ESCAPED, ctx);
    }

    @Override
    public Void visitBackslash(GlobParser.BackslashContext ctx) {
        return add(Piece.Type.BACKSLASH, ctx);
    }

    @Override
    public Void visitDot(GlobParser.DotContext ctx) {
        return add(Piece.Type.DOT, ctx);
    }

    @Override
    public Void visitSlash(GlobParser.SlashContext ctx) {
        return add(Piece.Type.SLASH, ctx);
    }

    @Override
    public Void visitLiteral(GlobParser.LiteralContext ctx) {
        return add(Piece.Type.CHAR, ctx);
    }
}
