package com.example.egress;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.policy.eval.DecisionProgram;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A small JVM service that embeds the Stockade engine: it compiles one policy file, answers decisions over HTTP,
 * and swaps in a newly compiled program whenever the file changes. The program lives in an
 * {@link AtomicReference}: request threads read it without locks, the watch thread replaces it whole.
 */
public final class DecisionService implements AutoCloseable {
    private final PolicyFile policy;
    private final Consumer<ProgramSwap> onSwap;
    private final AtomicReference<DecisionProgram> program = new AtomicReference<>();
    private final AtomicLong generation = new AtomicLong();
    private final HttpServer server;
    private final ExecutorService requests = Executors.newFixedThreadPool(4);
    private final WatchService watch;
    private final Thread watcher;

    /**
     * Compiles {@code policyFile}, binds {@code address} (port 0: any free port) and starts answering and
     * watching; {@code onSwap} hears of the first program (on the calling thread) and of every swap (on the watch
     * thread).
     */
    public static DecisionService start(Path policyFile, InetSocketAddress address, Consumer<ProgramSwap> onSwap)
            throws IOException {
        return new DecisionService(policyFile, address, onSwap);
    }

    private DecisionService(Path policyFile, InetSocketAddress address, Consumer<ProgramSwap> onSwap)
            throws IOException {
        this.policy = new PolicyFile(policyFile.toAbsolutePath());
        this.onSwap = onSwap;
        // Watch before the first read: a change between the two still reaches the watch thread.
        this.watch = FileSystems.getDefault().newWatchService();
        this.policy.path().getParent().register(watch, StandardWatchEventKinds.ENTRY_CREATE,
                StandardWatchEventKinds.ENTRY_MODIFY);
        reload();
        this.server = HttpServer.create(address, 0);
        server.createContext("/decide", new DecideEndpoint(program::get));
        server.setExecutor(requests);
        server.start();
        this.watcher = new Thread(this::watchLoop, "policy-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** The port the service answers on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The program deciding now; callers read it once per decision. */
    public DecisionProgram program() {
        return program.get();
    }

    private void reload() {
        PolicyFile.Compiled compiled = policy.compile();
        program.set(compiled.program());
        onSwap.accept(new ProgramSwap(generation.incrementAndGet(), compiled.policy(), compiled.problems()));
    }

    private void watchLoop() {
        Path name = policy.path().getFileName();
        try {
            while (true) {
                WatchKey key = watch.take();
                boolean ours = false;
                for (WatchEvent<?> event : key.pollEvents()) {
                    // An overflow lost events: the file may have changed, so read it again.
                    ours |= event.kind() == StandardWatchEventKinds.OVERFLOW || name.equals(event.context());
                }
                key.reset();
                if (ours) {
                    reload();
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops answering and watching. */
    @Override
    public void close() {
        server.stop(0);
        requests.shutdownNow();
        try {
            watch.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the service: {@code java com.example.egress.DecisionService POLICY_FILE [PORT]} (port default 8181). */
    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: DecisionService POLICY_FILE [PORT]");
            System.exit(2);
        }
        int port;
        try {
            port = args.length == 2 ? Integer.parseInt(args[1]) : 8181;
        } catch (NumberFormatException e) {
            System.err.println("port must be a number, was `" + args[1] + "`");
            System.exit(2);
            return;
        }
        DecisionService service = start(Path.of(args[0]), new InetSocketAddress("127.0.0.1", port), swap ->
                System.err.println("program " + swap.generation() + (swap.usable() ? ": policy `" + swap.policy() + "` compiled"
                        : ": policy not usable, denying everything\n" + swap.problems())));
        System.err.println("deciding on http://127.0.0.1:" + service.port() + "/decide?url=...");
    }
}
