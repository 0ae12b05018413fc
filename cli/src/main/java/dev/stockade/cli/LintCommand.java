package dev.stockade.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.policy.compiler.PolicyLint;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemRenderer;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Severity;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code stockade policy lint FILE...}: every problem of every file, for people or for CI. */
@Command(name = "lint", mixinStandardHelpOptions = true,
        description = {"Validate policy files strictly and report every problem, plus warnings from static analysis.",
                "Exit status: 0 clean (warnings allowed unless --strict), 1 problems, 2 a file could not be read."})
final class LintCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Policy files (YAML or JSON).")
    List<Path> files;

    @Option(names = "--format", defaultValue = "text",
            description = "text (default), json (problems, and RFC 9457 problem details per invalid file),"
                    + " sarif (SARIF 2.1.0 for code scanning) or github (GitHub Actions annotations).")
    LintFormat format;

    @Option(names = "--strict", description = "Warnings fail the lint too.")
    boolean strict;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, List<Problem>> byFile = new LinkedHashMap<>();
        Map<String, ReadResult> reads = new LinkedHashMap<>();
        boolean unreadable = false;
        for (Path file : files) {
            Optional<ReadResult> read = PolicyFiles.read(file, err);
            if (read.isPresent()) {
                reads.put(read.get().sourceName(), read.get());
                byFile.put(read.get().sourceName(), PolicyLint.lint(read.get()));
            } else {
                unreadable = true;
            }
        }
        switch (format) {
            case text -> printText(out, reads, byFile);
            case json -> out.println(json(byFile));
            case sarif -> out.println(ProblemRenderer.sarif(byFile).toPrettyString());
            case github -> out.print(GithubAnnotations.render(byFile));
        }
        out.flush();
        err.flush();
        if (unreadable) {
            return 2;
        }
        return byFile.values().stream().flatMap(List::stream).anyMatch(this::fails) ? 1 : 0;
    }

    private boolean fails(Problem p) {
        return p.severity() == Severity.ERROR || strict;
    }

    private static void printText(PrintWriter out, Map<String, ReadResult> reads, Map<String, List<Problem>> byFile) {
        long errors = 0;
        long warnings = 0;
        for (Map.Entry<String, List<Problem>> e : byFile.entrySet()) {
            ReadResult read = reads.get(e.getKey());
            if (!e.getValue().isEmpty()) {
                out.print(ProblemRenderer.human(e.getValue(), read.sourceName(), read.text()));
            }
            errors += e.getValue().stream().filter(p -> p.severity() == Severity.ERROR).count();
            warnings += e.getValue().stream().filter(p -> p.severity() == Severity.WARNING).count();
        }
        out.println(byFile.size() + (byFile.size() == 1 ? " file" : " files") + " checked: "
                + errors + (errors == 1 ? " error" : " errors") + ", " + warnings + (warnings == 1 ? " warning" : " warnings"));
    }

    private static ObjectNode json(Map<String, List<Problem>> byFile) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode files = root.putArray("files");
        byFile.forEach((file, problems) -> {
            boolean valid = problems.stream().noneMatch(p -> p.severity() == Severity.ERROR);
            ObjectNode node = files.addObject().put("file", file).put("valid", valid);
            if (!valid) {
                // The same RFC 9457 body the API answers a refused write with (status 422).
                node.set("problemDetails", ProblemRenderer.problemDetails(problems, file + " is not a valid policy", 422));
            }
            ArrayNode list = node.putArray("problems");
            for (Problem p : problems) {
                ObjectNode item = list.addObject().put("code", p.code())
                        .put("severity", p.severity().name().toLowerCase(java.util.Locale.ROOT))
                        .put("pointer", p.pointer()).put("line", p.line()).put("column", p.column())
                        .put("message", p.message());
                if (p.help() != null) {
                    item.put("help", p.help());
                }
            }
        });
        return root;
    }
}
