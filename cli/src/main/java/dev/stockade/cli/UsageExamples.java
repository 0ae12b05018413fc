package dev.stockade.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The "Examples:" section of every command's {@code --help}, kept in one resource ({@code examples.txt}) rather than in
 * 130 annotations, so that they read as one document and one test can run them all through the parser.
 */
final class UsageExamples {
    static final String RESOURCE = "examples.txt";
    static final String HEADING = "Examples:";

    private UsageExamples() {
    }

    /** The examples by qualified command name ({@code stockade policy lint}), in the file's order. */
    static Map<String, List<String>> load() {
        try (InputStream in = UsageExamples.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the usage examples " + RESOURCE + " are not on the classpath");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, List<String>> parse(String text) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                current = out.computeIfAbsent(line.substring(1, line.length() - 1), k -> new ArrayList<>());
            } else if (current != null) {
                current.add(line);
            }
        }
        return out;
    }

    /** Appends each command's examples to its usage footer, through the whole tree below {@code root}. */
    static void attach(CommandLine root, Map<String, List<String>> examples) {
        List<String> lines = examples.get(root.getCommandSpec().qualifiedName());
        if (lines != null) {
            UsageMessageSpec usage = root.getCommandSpec().usageMessage();
            List<String> footer = new ArrayList<>(List.of(usage.footer()));
            footer.add("");
            footer.add(HEADING);
            lines.forEach(l -> footer.add("  " + l));
            usage.footer(footer.toArray(String[]::new));
        }
        root.getSubcommands().values().stream().distinct().forEach(sub -> attach(sub, examples));
    }
}
