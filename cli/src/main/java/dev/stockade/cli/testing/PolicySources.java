package dev.stockade.cli.testing;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.model.Documents;
import dev.stockade.policy.model.ParsedDocument;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.Provider;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the policy values of a test file into read policies: an inline mapping (positions stay those
 * of the test file) or a path relative to the test file. Files are read once per suite.
 */
public final class PolicySources {
    private final Path dir;
    private final ParsedDocument doc;
    private final Map<Path, ReadResult> files = new HashMap<>();

    PolicySources(Path testFile, ParsedDocument doc) {
        Path parent = testFile.toAbsolutePath().getParent();
        this.dir = parent == null ? Path.of(".") : parent;
        this.doc = doc;
    }

    /** Reads and validates the policy at {@code pointer}: inline or by path. */
    ReadResult load(JsonNode value, String pointer) {
        if (value.isTextual()) {
            return files.computeIfAbsent(resolve(value.asText(), pointer), this::readFile);
        }
        return PolicyReader.fromTree(value, doc.sourceMap().rebase(pointer), doc.sourceName(), doc.text());
    }

    /** The stored document of an update case, unvalidated: inline, by path, or null for none stored. */
    JsonNode rawTree(JsonNode value, String pointer) {
        if (value.isMissingNode() || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            return value;
        }
        Path path = resolve(value.asText(), pointer);
        ParsedDocument parsed = Documents.parse(path.toString(), readText(path, pointer));
        if (parsed.root() == null) {
            throw new FormatProblem(pointer, "cannot parse " + Quoted.input(value.asText()));
        }
        return parsed.root();
    }

    /** Install facts with FORMAT.md's defaults: providers [bedrock], no ambient bedrock credentials. */
    InstallFacts install(JsonNode node, String pointer) {
        try {
            return installOf(node);
        } catch (IllegalArgumentException e) {
            throw new FormatProblem(pointer, e.getMessage());
        }
    }

    /**
     * Install facts from an {@code install} mapping with FORMAT.md's defaults: providers {@code [bedrock]},
     * no ambient bedrock credentials. An unknown provider is an {@link IllegalArgumentException}.
     */
    public static InstallFacts installOf(JsonNode node) {
        List<Provider> providers = new ArrayList<>();
        if (node.has("providers")) {
            for (JsonNode value : node.get("providers")) {
                Provider provider = Provider.fromWire(value.asText());
                if (provider == null) {
                    throw new IllegalArgumentException("unknown provider " + Quoted.input(value.asText()));
                }
                providers.add(provider);
            }
        } else {
            providers.add(Provider.BEDROCK);
        }
        return new InstallFacts(providers, node.path("bedrockAmbient").asBoolean(false));
    }

    private Path resolve(String relative, String pointer) {
        Path path = dir.resolve(relative).normalize();
        if (!Files.isRegularFile(path)) {
            throw new FormatProblem(pointer, "no policy file " + Quoted.input(relative) + " (looked at " + Quoted.clip(String.valueOf(path)) + ")");
        }
        return path;
    }

    private ReadResult readFile(Path path) {
        return PolicyReader.read(path.toString(), readText(path, ""));
    }

    private static String readText(Path path, String pointer) {
        SourceFiles.Loaded loaded = SourceFiles.read(path);
        if (loaded instanceof SourceFiles.Unreadable unreadable) {
            throw new FormatProblem(pointer, "cannot read " + unreadable.message());
        }
        return ((SourceFiles.Text) loaded).text();
    }

    /**
     * Install facts from an install file ({@code --install}), read like a test file's {@code install}
     * mapping: the bounded reader, duplicate and unknown keys refused, types checked. Returns the facts, or
     * the file's problems with their positions (never empty then).
     */
    public static InstallOrErrors installFile(Path file) {
        SourceFiles.Loaded loaded = SourceFiles.read(file);
        if (loaded instanceof SourceFiles.Unreadable u) {
            return new InstallOrErrors(null, List.of(new FormatError(u.name(), u.line(), u.column(),
                    "cannot read: " + u.reason())));
        }
        ParsedDocument doc = Documents.parse(file.toString(), ((SourceFiles.Text) loaded).text());
        List<FormatError> errors = new ArrayList<>();
        doc.problems().stream().filter(Problem::isError).forEach(p ->
                errors.add(new FormatError(doc.sourceName(), p.line(), p.column(), p.message())));
        if (errors.isEmpty()) {
            Shape.install().check(doc.root(), "", (pointer, message) ->
                    errors.add(PolicyTestRunner.at(doc, pointer, message)));
        }
        if (!errors.isEmpty()) {
            return new InstallOrErrors(null, errors);
        }
        try {
            return new InstallOrErrors(installOf(doc.root()), List.of());
        } catch (IllegalArgumentException e) {
            return new InstallOrErrors(null, List.of(PolicyTestRunner.at(doc, "/providers", e.getMessage())));
        }
    }

    /** Install facts, or why an install file gives none. */
    public record InstallOrErrors(InstallFacts facts, List<FormatError> errors) {
    }
}
