package dev.stockade.runtime.bench;

import dev.stockade.runtime.ProviderDouble;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The provider double in a JVM of its own, still speaking the providers' wire formats on loopback, so that a
 * benchmark's load generator only generates and measures: streaming hundreds of model replies a second from the
 * generator's JVM put the double's allocation and pauses into the latencies it measured. The harness drives it over
 * the child's standard input ({@code hold}, {@code release <n>}), one line per command, each answered {@code ok}.
 */
public final class ProviderProcess implements AutoCloseable {
    private static final long ANSWER_SECONDS = 30;

    private final Process process;
    private final BufferedReader answers;
    private final Writer commands;
    private final String base;

    private ProviderProcess(Process process) throws Exception {
        this.process = process;
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.commands = process.outputWriter(StandardCharsets.UTF_8);
        String ready = answer();
        if (!ready.startsWith("ready ")) {
            throw new IllegalStateException("the provider double did not start: " + ready);
        }
        this.base = ready.substring("ready ".length());
    }

    /**
     * Starts the double with this JVM's launcher and class path; {@code jvmOptions} (the system property
     * {@code bench.provider.jvm}, space-separated) are passed to the child.
     */
    public static ProviderProcess start() throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(ProcessHandle.current().info().command().orElseThrow()).toString());
        String opts = System.getProperty("bench.provider.jvm", "").trim();
        if (!opts.isEmpty()) {
            cmd.addAll(List.of(opts.split("\\s+")));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ProviderProcess.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            return new ProviderProcess(p);
        } catch (Exception e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** The double's base URL, as {@link ProviderDouble#base}. */
    public String base() {
        return base;
    }

    /** {@link ProviderDouble#holdChats} in the child. */
    public void holdChats() throws Exception {
        command("hold");
    }

    /** {@link ProviderDouble#release} in the child. */
    public void release(int n) throws Exception {
        command("release " + n);
    }

    private void command(String line) throws Exception {
        commands.write(line + "\n");
        commands.flush();
        String a = answer();
        if (!a.equals("ok")) {
            throw new IllegalStateException("the provider double refused `" + line + "`: " + a);
        }
    }

    /** The child's next line, waited for with a bound; its end (the child died) is an error. */
    private String answer() throws Exception {
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return answers.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(ANSWER_SECONDS, TimeUnit.SECONDS);
        if (line == null) {
            throw new IllegalStateException("the provider double exited (exit value "
                    + (process.isAlive() ? "none yet" : process.exitValue()) + ")");
        }
        return line;
    }

    /** Ends the child: closing its input is its signal to stop; it is killed if it has not within the bound. */
    @Override
    public void close() throws Exception {
        commands.close();
        if (!process.waitFor(ANSWER_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    /** The child: serves a {@link ProviderDouble} (requests not kept) until its standard input ends. */
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (ProviderDouble provider = new ProviderDouble().forgetCalls();
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            out.println("ready " + provider.base());
            String line;
            while ((line = in.readLine()) != null) {
                out.println(apply(provider, line.trim()));
            }
        }
        System.exit(0); // the double's request threads are not daemons; a held chat would keep the JVM for 30 s
    }

    private static String apply(ProviderDouble provider, String line) {
        if (line.equals("hold")) {
            provider.holdChats();
            return "ok";
        }
        if (line.matches("release \\d{1,9}")) {
            provider.release(Integer.parseInt(line.substring("release ".length())));
            return "ok";
        }
        return "unknown command";
    }
}
