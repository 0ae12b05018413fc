package dev.stockade.cli;

import dev.stockade.policy.text.Quoted;
import dev.stockade.policy.model.TerminalText;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.cli.testing.RequestFactory;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code stockade policy eval}: decide one request and say why. */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = {"Decide one request against the effective policy and print the decision with its reasons.",
                "Exit status: 0 allowed, 1 denied, 2 bad input."})
final class EvalCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Mixin
    ResolutionInputs inputs;

    @Option(names = "--url", required = true, description = "The request URL, e.g. https://api.github.com/graphql.")
    String url;

    @Option(names = "--method", description = "HTTP method (default GET, or POST with --graphql-query).")
    String method;

    @Option(names = "--caller", paramLabel = "PATH", description = "Kernel-resolved executable of the caller; omit for unknown.")
    String caller;

    @Option(names = "--header", paramLabel = "K:V", description = "A request header; repeatable.")
    List<String> headers;

    @ArgGroup(exclusive = false)
    GraphqlOptions graphql;

    @Option(names = "--format", defaultValue = "text", description = "text (default) or json.")
    OutputFormat format;

    /** A GraphQL payload, sent as a JSON POST body (or as query parameters with --method GET). */
    static final class GraphqlOptions {
        @Option(names = "--graphql-query", required = true, description = "GraphQL document text.")
        String query;

        @Option(names = "--graphql-variables", description = "Variables as a JSON object, sent as written (the"
                + " engine judges it as it would a client's body: duplicate keys deny).")
        String variables;

        @Option(names = "--operation-name", description = "The operationName to send.")
        String operationName;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<Resolution> resolution = inputs.resolve(err);
        if (resolution.isEmpty()) {
            return 2;
        }
        EgressRequest request;
        try {
            request = RequestFactory.from(requestNode(), graphql == null ? null : graphql.variables);
        } catch (IllegalArgumentException e) {
            err.println("stockade: " + TerminalText.escape(e.getMessage()));
            return 2;
        }
        DecisionProgram program = PolicyCompiler.compile(resolution.get(), CompileOptions.defaults());
        Decision connection = program.decideConnection(EgressRequest.connection(
                request.scheme(), request.host(), request.port(), request.sni(), request.caller()));
        Decision decision = program.decide(request);
        if (format == OutputFormat.json) {
            ObjectNode node = toJson(decision);
            node.set("connection", toJson(connection));
            out.println(node.toPrettyString());
        } else {
            out.println(decision.verdict().wire() + (decision.allowed() ? " " + decision.transport().wire() : ""));
            out.println("  connection: " + TerminalText.escape(explain(connection)));
            out.println("  request:    " + TerminalText.escape(explain(decision)));
        }
        out.flush();
        return decision.allowed() ? 0 : 1;
    }

    private ObjectNode requestNode() {
        ObjectNode node = JSON.createObjectNode().put("url", url);
        if (method != null) {
            node.put("method", method);
        }
        if (caller != null) {
            node.put("caller", caller);
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (String header : headers == null ? List.<String>of() : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("--header " + Quoted.input(header) + " must be NAME:VALUE");
            }
            map.put(header.substring(0, colon).strip(), header.substring(colon + 1).strip());
        }
        map.forEach(node.putObject("headers")::put);
        if (graphql != null) {
            ObjectNode g = node.putObject("graphql").put("query", graphql.query);
            if (graphql.operationName != null) {
                g.put("operationName", graphql.operationName);
            }
        }
        return node;
    }

    static String explain(Decision d) {
        StringBuilder out = new StringBuilder(d.verdict().wire());
        if (d.allowed()) {
            out.append(' ').append(d.transport().wire()).append(d.intercept() ? " (intercepted)" : "");
        }
        out.append(" [").append(d.reason().code()).append("] ");
        if (d.policy() != null) {
            out.append("policy `").append(d.policy()).append('`');
            out.append(d.entryIndex() >= 0 ? " entry " + d.entryIndex() : "");
            out.append(d.ruleIndex() >= 0 ? " rule " + d.ruleIndex() : "");
            out.append(": ");
        }
        return out.append(d.detail()).toString();
    }

    static ObjectNode toJson(Decision d) {
        ObjectNode node = JSON.createObjectNode().put("verdict", d.verdict().wire())
                .put("transport", d.transport() == null ? null : d.transport().wire())
                .put("intercept", d.intercept()).put("reason", d.reason().code())
                .put("policy", d.policy()).put("entry", d.entryIndex()).put("rule", d.ruleIndex())
                .put("detail", d.detail());
        return node;
    }
}
