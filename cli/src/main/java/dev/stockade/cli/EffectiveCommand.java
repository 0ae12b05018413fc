package dev.stockade.cli;

import dev.stockade.policy.model.TerminalText;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.policy.compiler.BlockedDomain;
import dev.stockade.policy.compiler.DescribeRows;
import dev.stockade.policy.compiler.NarrowedDomain;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.model.ConnectorGrant;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code stockade policy effective}: what resolution hands the sandbox. */
@Command(name = "effective", mixinStandardHelpOptions = true,
        description = {"Resolve the policies that reach an agent, clipped by the ceiling, and print the effective",
                "domains (describe rows), the sandbox environment plan, connector grants and drift.",
                "Exit status: 0 printed, 2 bad input."})
final class EffectiveCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper()
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL);

    @Spec
    CommandSpec spec;

    @Mixin
    ResolutionInputs inputs;

    @Option(names = "--format", defaultValue = "text", description = "text (default) or json.")
    OutputFormat format;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Optional<Resolution> resolved = inputs.resolve(spec.commandLine().getErr());
        if (resolved.isEmpty()) {
            return 2;
        }
        Resolution r = resolved.get();
        List<String> rows = DescribeRows.of(r.effective());
        if (format == OutputFormat.json) {
            ObjectNode node = JSON.createObjectNode();
            rows.forEach(node.putArray("domains")::add);
            r.sandboxEnv().forEach(node.putObject("sandboxEnv")::put);
            node.set("connectorGrants", JSON.valueToTree(r.connectorGrants()));
            ObjectNode drift = node.putObject("drift");
            drift.set("narrowedDomains", JSON.valueToTree(r.drift().narrowedDomains()));
            drift.set("blockedDomainDetails", JSON.valueToTree(r.drift().blockedDomainDetails()));
            out.println(node.toPrettyString());
        } else {
            printText(out, r, rows);
        }
        out.flush();
        return 0;
    }

    private static void printText(PrintWriter out, Resolution r, List<String> rows) {
        List<String> lines = new ArrayList<>();
        lines.add("domains:");
        rows.forEach(row -> lines.add("  " + row));
        lines.add("sandbox env:");
        for (Map.Entry<String, String> e : r.sandboxEnv().entrySet()) {
            lines.add("  " + e.getKey() + "=" + e.getValue());
        }
        lines.add("connector grants:");
        for (ConnectorGrant grant : r.connectorGrants()) {
            lines.add("  " + grant.connectorId() + ": "
                    + (grant.allowedTools().isEmpty() ? "(no tools)" : String.join(", ", grant.allowedTools())));
        }
        lines.add("drift:" + (r.drift().isEmpty() ? " none" : ""));
        for (NarrowedDomain d : r.drift().narrowedDomains()) {
            lines.add("  narrowed " + d.pattern() + " (policy `" + d.policy() + "` entry " + d.entryIndex() + ", "
                    + String.join(",", d.reasons()) + "): " + d.detail());
        }
        for (BlockedDomain d : r.drift().blockedDomainDetails()) {
            lines.add("  blocked  " + d.pattern() + " (policy `" + d.policy() + "` entry " + d.entryIndex() + ", "
                    + d.reason() + "): " + d.detail());
        }
        // Policy text reaches a terminal: every line escaped, so that no value can forge output.
        lines.forEach(line -> out.println(TerminalText.escape(line)));
    }
}
