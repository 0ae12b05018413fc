package dev.stockade.runtime;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import com.pty4j.WinSize;
import dev.stockade.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code stockade runtime tui} as a person runs it: its own JVM in a pseudo-terminal (pty4j), started by a bash that,
 * once the TUI has left, prints its exit status and {@code stty -a} of the same terminal. Everything the terminal
 * shows is recorded as it arrives; waits are bounded and name what they wait for.
 */
final class PtySession implements AutoCloseable {
    private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;?]*[ -/]*[@-~]|\u001b[=>]");
    private final PtyProcess process;
    private final ByteArrayOutputStream seen = new ByteArrayOutputStream();

    private PtySession(PtyProcess process) {
        this.process = process;
        Thread pump = new Thread(this::pump, "pty-output");
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts {@code runtime tui} with {@code args} in a terminal of {@code cols} x {@code rows}. */
    static PtySession tui(Path home, int cols, int rows, String... args) throws IOException {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of("/bin/bash", "-c",
                // bash outlives the TUI to report on the terminal it leaves; Ctrl-C reaches bash too, hence the trap
                "trap : INT; stty cols " + cols + " rows " + rows + "; \"$0\" \"$@\"; echo \"tui-exit=$?\"; "
                        + "echo \"termios: $(stty -a | tr '\\n' ' ')\"",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", cp, "dev.stockade.runtime.RuntimeMain", "tui"));
        cmd.addAll(List.of(args));
        Map<String, String> env = Map.of("TERM", "xterm-256color", "LANG", "C.UTF-8", "HOME", home.toString(),
                "AGENT_HOME", home.resolve("tui-home").toString(), "PATH", System.getenv("PATH"));
        return new PtySession(new PtyProcessBuilder(cmd.toArray(String[]::new)).setEnvironment(env)
                .setDirectory(home.toString()).setInitialColumns(cols).setInitialRows(rows)
                .setRedirectErrorStream(true).start());
    }

    private void pump() {
        byte[] buf = new byte[8192];
        try (InputStream in = process.getInputStream()) {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                synchronized (seen) {
                    seen.write(buf, 0, n);
                }
            }
        } catch (IOException e) {
            // the terminal closed: everything it showed has been recorded
        }
    }

    /** Everything the terminal showed, control sequences included. */
    String raw() {
        synchronized (seen) {
            return seen.toString(StandardCharsets.UTF_8);
        }
    }

    /** How much has been shown so far: a mark for {@link #since}. */
    int mark() {
        return raw().length();
    }

    /** What was shown after {@code mark}, raw. */
    String since(int mark) {
        String all = raw();
        return all.substring(Math.min(mark, all.length()));
    }

    /** What the person sees after {@code mark}: the terminal's own sequences and CRs removed. */
    String visibleSince(int mark) {
        return ANSI.matcher(since(mark)).replaceAll("").replace("\r", "");
    }

    /** Types {@code text} as keys ({@code \r} is Enter, {@code \u0003} Ctrl-C). */
    void type(String text) throws IOException {
        process.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /** Waits until the terminal has shown {@code text} after {@code mark}. */
    void await(int mark, String text) {
        Await.until("the terminal to show `" + text + "`; it showed: " + tail(), Await.LONG,
                () -> visibleSince(mark).contains(text));
    }

    /** Waits for a whole line starting with {@code start} after {@code mark}; the line. */
    String awaitLine(int mark, String start) {
        Pattern line = Pattern.compile("(?m)^" + Pattern.quote(start) + ".*\n");
        Await.until("a line starting `" + start + "`; the terminal showed: " + tail(), Await.LONG,
                () -> line.matcher(visibleSince(mark)).find());
        Matcher m = line.matcher(visibleSince(mark));
        m.find();
        return m.group();
    }

    /** Waits for the next prompt after {@code mark} (the TUI is ready for a line). */
    void awaitPrompt(int mark) {
        Await.until("a prompt; the terminal showed: " + tail(), Await.LONG, () -> since(mark).contains("\u001b[?2004h> "));
    }

    void resize(int cols, int rows) {
        process.setWinSize(new WinSize(cols, rows));
    }

    /** The TUI's JVM: bash's child. */
    ProcessHandle tuiProcess() {
        return ProcessHandle.of(process.pid()).orElseThrow().children()
                .filter(p -> p.info().command().orElse("").endsWith("/java")).findFirst()
                .orElseThrow(() -> new IllegalStateException("the TUI's JVM is not running"));
    }

    /** The terminal device the TUI's JVM reads, such as {@code /dev/pts/3}. */
    Path tuiTerminal() throws IOException {
        return Files.readSymbolicLink(Path.of("/proc", Long.toString(tuiProcess().pid()), "fd", "0"));
    }

    /** Waits for bash (and so the TUI) to end; its exit status. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(Await.LONG.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("the TUI did not exit; the terminal showed: " + tail());
        }
        return process.exitValue();
    }

    private String tail() {
        String v = visibleSince(0);
        return v.substring(Math.max(0, v.length() - 600));
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
