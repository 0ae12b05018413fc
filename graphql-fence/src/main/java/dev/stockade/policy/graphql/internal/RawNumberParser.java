package dev.stockade.policy.graphql.internal;

import graphql.language.FloatValue;
import graphql.language.IntValue;
import graphql.language.Value;
import graphql.org.antlr.v4.runtime.CommonTokenStream;
import graphql.org.antlr.v4.runtime.tree.TerminalNode;
import graphql.parser.GraphqlAntlrToLanguage;
import graphql.parser.MultiSourceReader;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;
import graphql.parser.antlr.GraphqlParser;

/**
 * graphql-java's parser, keeping the source text of every number literal in the node's additional data
 * under {@link #RAW}. graphql-java stores numbers as BigInteger/BigDecimal, which re-render {@code 1e3}
 * as {@code 1E+3} and {@code -0} as {@code 0}; argument conditions compare numbers as written.
 */
final class RawNumberParser extends Parser {

    static final String RAW = "stockade.raw";

    @Override
    protected GraphqlAntlrToLanguage getAntlrToLanguage(CommonTokenStream tokens, MultiSourceReader reader,
                                                        ParserEnvironment environment) {
        return new RawNumbers(tokens, reader, environment);
    }

    private static final class RawNumbers extends GraphqlAntlrToLanguage {
        RawNumbers(CommonTokenStream tokens, MultiSourceReader reader, ParserEnvironment environment) {
            // The node-to-rule map stays null, as in graphql-java's own parser: nothing keeps parse trees.
            super(tokens, reader, environment.getParserOptions(), environment.getI18N(), null);
        }

        @Override
        protected Value createValue(GraphqlParser.ValueWithVariableContext ctx) {
            return keepRaw(super.createValue(ctx), ctx.IntValue(), ctx.FloatValue());
        }

        @Override
        protected Value createValue(GraphqlParser.ValueContext ctx) {
            return keepRaw(super.createValue(ctx), ctx.IntValue(), ctx.FloatValue());
        }

        private static Value keepRaw(Value value, TerminalNode intToken, TerminalNode floatToken) {
            if (value instanceof IntValue intValue && intToken != null) {
                String raw = intToken.getText();
                return intValue.transform(b -> b.additionalData(RAW, raw));
            }
            if (value instanceof FloatValue floatValue && floatToken != null) {
                String raw = floatToken.getText();
                return floatValue.transform(b -> b.additionalData(RAW, raw));
            }
            return value;
        }
    }
}
