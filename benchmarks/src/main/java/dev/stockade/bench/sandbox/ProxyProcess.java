package dev.stockade.bench.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A separate proxy replica, {@code java -jar proxy-host/target/stockade-proxy.jar --platform URL}, for its RSS. */
final class ProxyProcess implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final List<String> command;

    private ProxyProcess(Process process, Path log, List<String> command) {
        this.process = process;
        this.log = log;
        this.command = command;
    }

    static ProxyProcess start(BenchPlatform platform, Path tokenFile) throws IOException {
        return start(platform.dir, platform.base, tokenFile);
    }

    /** A replica following the platform at {@code base}, its data directory and log in a new folder of {@code parent}. */
    static ProxyProcess start(Path parent, String base, Path tokenFile) throws IOException {
        Path dir = Files.createTempDirectory(parent, "proxy");
        // the collector `./stockade proxy` chooses (docs/proxy.md, "Memory and the collector")
        return launch(List.of("java", "-XX:+UseZGC", "-jar", "proxy-host/target/stockade-proxy.jar", "--platform",
                base, "--platform-token-file", tokenFile.toString(), "--port", "0", "--data-dir", dir.toString(),
                "--audit", dir.resolve("audit.jsonl").toString()), dir.resolve("proxy.log"));
    }

    private static ProxyProcess launch(List<String> command, Path log) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ProxyProcess(p, log, command);
    }

    /** SIGKILL; returns once the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the proxy did not die within 30 s of SIGKILL");
        }
    }

    /** The same replica started again on the same data directory and options (its log continues). */
    ProxyProcess restart() throws IOException {
        return launch(command, log);
    }

    /** How many full syncs the log reports so far (whatever the number of sets). */
    long syncs() throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains("in sync at version")).count();
    }

    /** Waits for the replica's first sync with {@code sandboxes} sets; its resident memory then, in bytes. */
    long awaitSynced(int sandboxes) throws Exception {
        String expected = ", " + sandboxes + " sandbox(es)";
        for (int i = 0; i < 1200; i++) {
            List<String> lines = Files.readAllLines(log);
            if (lines.stream().anyMatch(l -> l.contains("in sync at version") && l.endsWith(expected))) {
                Thread.sleep(2000); // let the JIT and the allocator settle before reading RSS
                return rss();
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the proxy exited: " + String.join("\n", lines));
            }
            Thread.sleep(100); // the replica reads the feed: poll its log
        }
        throw new IllegalStateException("the proxy did not sync " + sandboxes + " sandboxes; see " + log);
    }

    /** VmRSS of the process, in bytes. */
    long rss() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS for " + process.pid());
    }

    /**
     * The process's live heap in bytes: a full collection ({@code jcmd GC.run}), then the heap's used size
     * ({@code jcmd GC.heap_info}). Unlike RSS it does not count heap the JVM grew and keeps.
     */
    long liveHeap() throws IOException, InterruptedException {
        jcmd("GC.run");
        String info = jcmd("GC.heap_info");
        // the heap's line comes first: G1 says "used 123456K", ZGC "used 126M" (Metaspace's line follows, in K)
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)([KMG])").matcher(info);
        if (!m.find()) {
            throw new IOException("no heap use in jcmd's answer: " + info);
        }
        int shift = switch (m.group(2)) {
            case "K" -> 10;
            case "M" -> 20;
            default -> 30;
        };
        return Long.parseLong(m.group(1)) << shift;
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        Process j = new ProcessBuilder("jcmd", Long.toString(process.pid()), command).redirectErrorStream(true)
                .start();
        String out = new String(j.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!j.waitFor(60, TimeUnit.SECONDS) || j.exitValue() != 0) {
            throw new IOException("jcmd " + command + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
