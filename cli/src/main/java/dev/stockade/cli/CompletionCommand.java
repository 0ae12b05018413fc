package dev.stockade.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code stockade completion bash|zsh}: the shell completion script picocli generates from the command tree. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a completion script for bash or zsh: commands, options and their fixed values.",
                "bash: source <(stockade completion bash), or save it under /etc/bash_completion.d/.",
                "zsh: the same script, through zsh's bashcompinit (the script turns it on)."})
final class CompletionCommand implements Callable<Integer> {
    /** The shells the script supports. */
    enum Shell { bash, zsh }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh.")
    Shell shell;

    @Override
    public Integer call() {
        // One script serves both: picocli's output loads bashcompinit itself when zsh sources it.
        String script = AutoComplete.bash("stockade", spec.root().commandLine());
        spec.commandLine().getOut().print(script);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
