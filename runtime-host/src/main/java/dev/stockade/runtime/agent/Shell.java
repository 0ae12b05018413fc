package dev.stockade.runtime.agent;

import dev.stockade.runtime.config.ChildEnvironment;
import dev.stockade.runtime.provider.ToolSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The shell tool: {@code bash -c} in SHELL_WORKSPACE_ROOT with a time limit and a cap on output. Never
 * withheld by the lock (the lock is a guardrail, not a security boundary; the sandbox is).
 */
public final class Shell {
    private static final int MAX_OUTPUT = 16 * 1024;
    private final Path workspace;
    private final long timeoutSeconds;
    private final ChildEnvironment environment;

    /** A shell in {@code workspace}; its commands see only {@code environment}, never the runtime's secrets. */
    public Shell(Path workspace, long timeoutSeconds, ChildEnvironment environment) {
        this.workspace = workspace;
        this.timeoutSeconds = timeoutSeconds;
        this.environment = environment;
    }

    Tool tool() {
        return new Tool(new ToolSpec("shell", "Run a bash command in your workspace; returns exit code and output.",
                Toolbox.schema(List.of("command"), "command", "string")), false,
                in -> run(Toolbox.text(in, "command")), null);
    }

    /** Runs {@code command}; the result holds the exit code and the first bytes of combined output. */
    public String run(String command) throws IOException, InterruptedException, Tool.ToolError {
        Files.createDirectories(workspace);
        // Output goes to a file so a quiet command cannot block the reader past the time limit.
        Path out = Files.createTempFile("shell-tool", ".out");
        try {
            Process p = environment.processBuilder(List.of("bash", "-c", command)).directory(workspace.toFile())
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new Tool.ToolError("the command ran longer than " + timeoutSeconds + " s and was stopped");
            }
            byte[] bytes;
            try (var in = Files.newInputStream(out)) {
                bytes = in.readNBytes(MAX_OUTPUT);
            }
            return "exit " + p.exitValue() + "\n" + new String(bytes, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
