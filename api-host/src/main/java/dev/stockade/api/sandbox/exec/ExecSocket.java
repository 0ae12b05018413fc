package dev.stockade.api.sandbox.exec;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.Caller;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.sandbox.SandboxService;
import dev.stockade.api.sandbox.SandboxState;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.Provisioner;
import io.micronaut.http.HttpRequest;
import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnClose;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.OnOpen;
import io.micronaut.websocket.annotation.ServerWebSocket;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Interactive exec ({@code wss .../sandboxes/{sandboxId}/exec?command=...&command=...&tty=&cols=&rows=}): one binary
 * frame per chunk, its first byte the channel: client to sandbox {@code 0} stdin (an empty payload closes stdin) and
 * {@code 4} resize ({@code {"cols":N,"rows":N}}); sandbox to client {@code 1} stdout, {@code 2} stderr and {@code 3}
 * the exit status (4 bytes, big-endian), after which the client closes (else the platform, 10 s later); {@code 5} (empty)
 * says the command started, and
 * a client sends nothing before it. Each repeated {@code command} parameter is one
 * argument; none runs the sandbox's shell. The access filter authorized the handshake ({@code SANDBOX_EXEC}); a
 * session without its grant is closed at once.
 */
@ServerWebSocket("/v1/projects/{projectId}/sandboxes/{sandboxId}/exec")
public class ExecSocket {
    private static final Logger LOG = LoggerFactory.getLogger(ExecSocket.class);
    private static final int CHUNK = 32 * 1024;
    /** How long the client has to close after the exit frame before the platform closes instead. */
    private static final Duration CLIENT_CLOSE_GRACE = Duration.ofSeconds(10);

    private final SandboxService sandboxes;
    private final Provisioner provisioner;
    private final AuditLog audit;
    private final Map<String, ExecProcess> running = new ConcurrentHashMap<>();
    private final Map<String, ExecutorService> writers = new ConcurrentHashMap<>();
    /** Completed when the client's close frame arrives, by session. */
    private final Map<String, CompletableFuture<Void>> clientClosed = new ConcurrentHashMap<>();
    private final ExecutorService pumps = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "exec-pump");
        t.setDaemon(true);
        return t;
    });

    public ExecSocket(SandboxService sandboxes, Provisioner provisioner, AuditLog audit) {
        this.sandboxes = sandboxes;
        this.provisioner = provisioner;
        this.audit = audit;
    }

    @OnOpen
    @Access(Action.SANDBOX_EXEC)
    public void open(String projectId, String sandboxId, WebSocketSession session, HttpRequest<?> request) {
        Grant grant = request.getAttribute("stockade.grant", Grant.class).orElse(null);
        if (grant == null) {
            session.close(new CloseReason(CloseReason.POLICY_VIOLATION.getCode(), "not authorized"));
            return;
        }
        clientClosed.put(session.getId(), new CompletableFuture<>());
        pumps.submit(() -> start(sandboxId, session, request, grant));
    }

    private void start(String sandboxId, WebSocketSession session, HttpRequest<?> request, Grant grant) {
        try {
            UUID id = UUID.fromString(sandboxId);
            Sandbox s = sandboxes.get(grant, id); // 404 for another project's sandbox
            s = sandboxes.ensureRunning(s.id(), Duration.ofSeconds(120)); // auto-start, and activity for auto-stop
            if (s.state() != SandboxState.RUNNING) {
                session.close(new CloseReason(4409, "the sandbox is " + s.state()));
                return;
            }
            List<String> command = request.getParameters().getAll("command");
            boolean tty = Boolean.parseBoolean(request.getParameters().get("tty"));
            int cols = intParam(request, "cols", 80);
            int rows = intParam(request, "rows", 24);
            // who opened a shell or ran a program in the sandbox: the program's name, never its arguments (a
            // command line can carry a secret)
            audit.record(s.event("exec", Caller.identity(request)).details(Map.of("program",
                    command.isEmpty() ? "(shell)" : program(command.get(0)), "tty", tty)).build());
            ExecProcess p = provisioner.exec(id.toString(), new ExecRequest(command, tty, cols, rows));
            writers.put(session.getId(), Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "exec-stdin");
                t.setDaemon(true);
                return t;
            }));
            running.put(session.getId(), p);
            session.sendSync(new byte[] {5}); // started: the client sends stdin and resizes after this frame
            var out = pumps.submit(() -> pump(p.stdout(), (byte) 1, session));
            var err = pumps.submit(() -> pump(p.stderr(), (byte) 2, session));
            int status = p.exit().join();
            out.get(); // both streams end with the process: all output is sent before the exit frame
            err.get();
            byte[] exit = {3, (byte) (status >>> 24), (byte) (status >>> 16), (byte) (status >>> 8), (byte) status};
            session.sendSync(exit);
            closeAfterClient(session);
        } catch (ProvisionException e) {
            session.close(new CloseReason(4500, truncate(e.getMessage())));
        } catch (dev.stockade.api.kernel.web.ApiProblem e) {
            session.close(new CloseReason(4000 + e.code().status().getCode(), truncate(e.detail())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | RuntimeException e) {
            LOG.warn("exec in sandbox {} failed", sandboxId, e);
            session.close(new CloseReason(CloseReason.INTERNAL_ERROR.getCode(), "exec failed"));
        } finally {
            forget(session);
        }
    }

    /**
     * Client frames, in arrival order: the installation selects blocking threads for handlers
     * ({@code micronaut.server.thread-selection: BLOCKING}), which would run two frames concurrently and could close
     * stdin before the data ahead of it is written; so this handler runs on the one-thread executor {@code exec-frames}
     * (tasks submitted in arrival order run in that order) and only hands each frame to the session's own writer
     * thread (a full stdin pipe then blocks that thread, never another session).
     */
    @OnMessage
    @io.micronaut.scheduling.annotation.ExecuteOn("exec-frames")
    public void message(byte[] frame, WebSocketSession session) {
        ExecProcess p = running.get(session.getId());
        ExecutorService writer = writers.get(session.getId());
        if (p == null || writer == null || frame.length == 0) {
            return;
        }
        writer.execute(() -> deliver(p, frame));
    }

    private static void deliver(ExecProcess p, byte[] frame) {
        try {
            if (frame[0] == 0 && frame.length == 1) {
                p.stdin().close();
            } else if (frame[0] == 0) {
                p.stdin().write(frame, 1, frame.length - 1);
                p.stdin().flush();
            } else if (frame[0] == 4) {
                var size = new com.fasterxml.jackson.databind.ObjectMapper().readTree(frame, 1, frame.length - 1);
                p.resize(size.path("cols").asInt(80), size.path("rows").asInt(24));
            }
        } catch (IOException e) {
            // the process closed its input
        }
    }

    /**
     * The client closes when it has read the exit frame. Closing first while frames it sent are still unread (an end
     * of input queued behind a large output) makes the kernel answer with a reset, and a reset discards what the
     * client had not read yet: the end of the output. So the platform waits for the client's close, and closes itself
     * only after {@link #CLIENT_CLOSE_GRACE}.
     */
    private void closeAfterClient(WebSocketSession session) throws InterruptedException {
        CompletableFuture<Void> closed = clientClosed.get(session.getId());
        try {
            if (closed != null) {
                closed.get(CLIENT_CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                return;
            }
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            // the client kept the socket open: close it
        }
        session.close(CloseReason.NORMAL);
    }

    @OnClose
    public void close(WebSocketSession session) {
        CompletableFuture<Void> closed = clientClosed.remove(session.getId());
        if (closed != null) {
            closed.complete(null);
        }
        forget(session);
    }

    private void forget(WebSocketSession session) {
        ExecutorService writer = writers.remove(session.getId());
        if (writer != null) {
            writer.shutdownNow();
        }
        ExecProcess p = running.remove(session.getId());
        if (p != null) {
            p.close();
        }
    }

    private static void pump(InputStream in, byte channel, WebSocketSession session) {
        byte[] buf = new byte[CHUNK];
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                byte[] frame = new byte[n + 1];
                frame[0] = channel;
                System.arraycopy(buf, 0, frame, 1, n);
                session.sendSync(frame);
            }
        } catch (IOException | RuntimeException e) {
            // the process or the socket ended
        }
    }

    private static int intParam(HttpRequest<?> request, String name, int fallback) {
        try {
            int v = Integer.parseInt(request.getParameters().get(name, String.class, String.valueOf(fallback)));
            return v > 0 && v <= 1000 ? v : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static String truncate(String s) {
        return s == null ? "" : s.length() > 100 ? s.substring(0, 100) : s;
    }

    /** The last path element of the program a command runs, bounded for the trail. */
    private static String program(String argv0) {
        String name = argv0.substring(argv0.lastIndexOf('/') + 1);
        return name.length() > 64 ? name.substring(0, 64) : name;
    }
}
