package dev.stockade.cli;

import dev.stockade.cli.schema.PublishedSchemas;
import dev.stockade.cli.schema.SchemaKind;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code stockade schema policy|test|sandbox}: the JSON Schema editors and CI validate those files with. */
@Command(name = "schema", mixinStandardHelpOptions = true,
        description = {"Print the JSON Schema (draft-07) of policy files, policy test files or sandbox files.",
                "The same schemas are committed under docs/schema/. Save one beside your files and point an editor at it"
                        + " with a modeline on a YAML file's first line (docs/cli.md):",
                "  # yaml-language-server: $schema=../.stockade/policy.schema.json"})
final class SchemaCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "KIND", description = "policy, test or sandbox.",
            converter = KindConverter.class, completionCandidates = Kinds.class)
    SchemaKind kind;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(PublishedSchemas.text(kind));
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** The words of the kinds, for completion and the usage message. */
    static final class Kinds implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(SchemaKind.values()).map(SchemaKind::word).iterator();
        }
    }

    /** A kind by its word; anything else is a usage error that names the words. */
    static final class KindConverter implements picocli.CommandLine.ITypeConverter<SchemaKind> {
        @Override
        public SchemaKind convert(String value) {
            for (SchemaKind k : SchemaKind.values()) {
                if (k.word().equals(value)) {
                    return k;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("`" + value + "` is not a schema kind;"
                    + " use policy, test or sandbox");
        }
    }
}
