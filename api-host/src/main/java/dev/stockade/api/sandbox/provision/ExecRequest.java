package dev.stockade.api.sandbox.provision;

import java.util.List;

/**
 * One interactive command inside a sandbox.
 *
 * @param command the argv; empty runs the sandbox's login shell
 * @param tty     allocate a pseudo-terminal (stdout and stderr are then one stream)
 * @param cols    terminal width when {@code tty}
 * @param rows    terminal height when {@code tty}
 */
public record ExecRequest(List<String> command, boolean tty, int cols, int rows) {
    public ExecRequest {
        command = List.copyOf(command);
    }
}
