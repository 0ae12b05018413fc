package dev.stockade.bench.graphql;

import dev.stockade.policy.graphql.FenceResult;
import dev.stockade.policy.graphql.GraphqlExchange;
import dev.stockade.policy.graphql.GraphqlFenceSet;
import dev.stockade.policy.graphql.GraphqlLimits;
import dev.stockade.policy.graphql.internal.ParserSetup;
import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import graphql.language.Document;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;
import graphql.parser.ParserOptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The cost of a GraphQL fence decision next to the cost of graphql-java's parser alone, on GitHub-style
 * operations of about 200 B, 2 KB and 20 KB (fragments and variables included). Target: the full decision
 * (reading the JSON body, parsing with the fence's options, judging) within 1.25x of a parse with
 * default options.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GraphqlFenceBenchmark {

    @Param({"small", "medium", "large"})
    public String size;

    private String query;
    private byte[] body;
    private ParserOptions fenceOptions;
    private GraphqlFenceSet fences;

    @Setup
    public void setUp() {
        query = GithubOperations.query(size);
        body = GithubOperations.body(query, size).getBytes(StandardCharsets.UTF_8);
        fenceOptions = ParserSetup.parserOptions(GraphqlLimits.defaults());
        fences = GraphqlFenceSet.allOf(List.of(new GraphqlFence(OperationType.QUERY, "*",
                        List.of("repository", "viewer", "organization", "search", "rateLimit"),
                        List.of(new ArgumentCondition("repository", "/owner", "acme*")))),
                GraphqlLimits.defaults());
        FenceResult check = fences.judge(GraphqlExchange.of("POST", "application/json", null, body, false, false));
        if (!check.allowed()) {
            throw new IllegalStateException("benchmark operation must be admitted: " + check);
        }
    }

    /** graphql-java's parser with its default options (what a GraphQL server does anyway). */
    @Benchmark
    public Document parseDefaultOptions() {
        return new Parser().parseDocument(query);
    }

    /** The same parse with the fence's hardened options (no locations, comments or ignored chars). */
    @Benchmark
    public Document parseFenceOptions() {
        return new Parser().parseDocument(ParserEnvironment.newParserEnvironment()
                .document(query).parserOptions(fenceOptions).build());
    }

    /**
     * The full decision in steady state: the exchange from raw body bytes, JSON read, the analysis of the
     * query text (parse, fragments, root fields) from the cache, arguments resolved, verdict.
     */
    @Benchmark
    public FenceResult fullDecision() {
        return fences.judge(GraphqlExchange.of("POST", "application/json", null, body, false, false));
    }

    /**
     * The full decision when the query text was never seen: each call appends a different comment (a
     * whitespace-channel token) to the text, so the cache misses and the text is parsed.
     */
    @Benchmark
    public FenceResult fullDecisionUncached() {
        byte[] unique = GithubOperations.body(query + "# " + (counter++) + "\n", size).getBytes(StandardCharsets.UTF_8);
        return fences.judge(GraphqlExchange.of("POST", "application/json", null, unique, false, false));
    }

    /** The cost of building the unique body in {@link #fullDecisionUncached}, to subtract from it. */
    @Benchmark
    public byte[] uncachedBodyOnly() {
        return GithubOperations.body(query + "# " + (counter++) + "\n", size).getBytes(StandardCharsets.UTF_8);
    }

    private long counter;
}
