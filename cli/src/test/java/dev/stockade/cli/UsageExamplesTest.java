package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's {@code --help} ends in examples, and every example parses with that command's own options. */
class UsageExamplesTest {
    private static List<CommandLine> tree(CommandLine root) {
        List<CommandLine> out = new ArrayList<>(List.of(root));
        root.getSubcommands().values().stream().distinct().forEach(sub -> out.addAll(tree(sub)));
        return out;
    }

    private static CommandLine fresh() {
        return Stockade.commandLine(Map.of(), System.in);
    }

    @Test
    void everyCommandHasAnExamplesSection() {
        List<CommandLine> commands = tree(fresh());
        assertThat(commands).hasSizeGreaterThan(100);
        List<String> without = commands.stream()
                .filter(c -> !List.of(c.getCommandSpec().usageMessage().footer()).contains(UsageExamples.HEADING))
                .map(c -> c.getCommandSpec().qualifiedName()).toList();
        assertThat(without).as("commands without examples (add them to examples.txt)").isEmpty();
    }

    @Test
    void everyExampleNamesACommandAndParses() {
        Set<String> names = new TreeSet<>();
        tree(fresh()).forEach(c -> names.add(c.getCommandSpec().qualifiedName()));
        Map<String, List<String>> examples = UsageExamples.load();
        assertThat(names).containsAll(examples.keySet());
        int parsed = 0;
        // one tree for every parse: picocli judges each parse on what it matched (required options too), and building
        // the tree of 130 commands per example cost minutes on a busy machine
        CommandLine root = fresh();
        for (Map.Entry<String, List<String>> e : examples.entrySet()) {
            for (String example : e.getValue()) {
                List<String> words = words(example);
                assertThat(words.get(0)).as(example).isEqualTo("stockade");
                try {
                    CommandLine.ParseResult result = root.parseArgs(words.subList(1, words.size()).toArray(String[]::new));
                    List<CommandLine> chain = result.asCommandLineList();
                    // a group's examples show its subcommands: the command run is the key or one below it
                    assertThat(chain.get(chain.size() - 1).getCommandSpec().qualifiedName()).as(example)
                            .startsWith(e.getKey());
                } catch (CommandLine.ParameterException ex) {
                    throw new AssertionError("`" + example + "` does not parse: " + ex.getMessage(), ex);
                }
                parsed++;
            }
        }
        assertThat(parsed).isGreaterThan(names.size());
        // the reused tree still refuses an example that lacks a required option or names an unknown one
        assertThatThrownBy(() -> root.parseArgs("sandbox", "list")).isInstanceOf(CommandLine.ParameterException.class);
        assertThatThrownBy(() -> root.parseArgs("policy", "lint", "--colour", "p.yaml"))
                .isInstanceOf(CommandLine.ParameterException.class);
    }

    @Test
    void helpPrintsTheExamples() {
        CliRun run = CliRun.of("policy", "lint", "--help");
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("\nExamples:\n  stockade policy lint policies/*.yaml\n")
                .contains("\n  stockade policy lint --format github policies/*.yaml\n");
    }

    /**
     * The words of an example as a POSIX shell would pass them: from {@code stockade} up to a redirection or the
     * closing parenthesis of a process substitution, with single and double quotes removed.
     */
    static List<String> words(String example) {
        String line = example.substring(example.indexOf("stockade"));
        List<String> out = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (c == '>' || c == ')' || c == '|') {
                break;
            } else if (c == ' ') {
                if (word != null) {
                    out.add(word.toString());
                }
                word = null;
            } else {
                word = (word == null ? new StringBuilder() : word).append(c);
            }
        }
        if (word != null) {
            out.add(word.toString());
        }
        return out;
    }
}
