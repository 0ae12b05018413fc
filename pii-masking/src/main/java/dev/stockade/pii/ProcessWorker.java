package dev.stockade.pii;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * A worker in a separate JVM, so that a masking fault cannot take the proxy down with it. One request at a
 * time; a request that times out kills the child and starts a fresh one (a half-done child cannot be trusted
 * to answer the next request). A child that exits on its own makes the worker dead until it is closed. The
 * child gets an empty environment: nothing of the proxy's reaches it but its class path.
 */
public final class ProcessWorker implements MaskingWorker {

    private final List<String> command;
    private final ReentrantLock lock = new ReentrantLock();
    private final ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "pii-worker-reader");
        t.setDaemon(true);
        return t;
    });
    private volatile Child child;
    private volatile boolean closed;

    private record Child(Process process, DataOutputStream out, DataInputStream in) {
    }

    private ProcessWorker(List<String> command) {
        this.command = List.copyOf(command);
    }

    /** Starts a child JVM with this JVM's class path, masking with {@code settings}. */
    public static ProcessWorker start(MaskingSettings settings, Duration startTimeout) throws MaskingException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), WorkerProcessMain.class.getName()));
        cmd.add(settings.types().stream().map(Enum::name).sorted().collect(Collectors.joining(",")));
        cmd.add(Boolean.toString(settings.unmaskResponses()));
        cmd.add(Boolean.toString(settings.failOpen()));
        ScanBudget b = settings.budget();
        cmd.addAll(List.of(Integer.toString(b.maxCharsPerRequest()), Integer.toString(b.windowChars()),
                Integer.toString(b.windowOverlap())));
        ProcessWorker worker = new ProcessWorker(cmd);
        worker.child = worker.spawn(startTimeout);
        return worker;
    }

    private Child spawn(Duration timeout) throws MaskingException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        try {
            Process p = pb.start();
            Child c = new Child(p, new DataOutputStream(new BufferedOutputStream(p.getOutputStream())),
                    new DataInputStream(new BufferedInputStream(p.getInputStream())));
            String hello = await(() -> c.in().readUTF(), timeout, c);
            if (!hello.equals("ready")) {
                p.destroyForcibly();
                throw new MaskingException(MaskingException.Kind.WORKER_DEAD, "masking child did not start");
            }
            return c;
        } catch (IOException e) {
            throw new MaskingException(MaskingException.Kind.WORKER_DEAD, "cannot start masking child: " + e.getMessage());
        }
    }

    @Override
    public MaskedBody mask(byte[] body, WireFormat format, Duration timeout) throws MaskingException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new MaskingException(MaskingException.Kind.OVERLOADED, "masking child is busy");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MaskingException(MaskingException.Kind.TIMEOUT, "interrupted while waiting for the masking child");
        }
        try {
            Child c = child;
            if (health() == WorkerHealth.DEAD) {
                throw new MaskingException(MaskingException.Kind.WORKER_DEAD, "masking child is not running");
            }
            Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
            return await(() -> {
                WorkerProtocol.writeRequest(c.out(), format, body);
                return WorkerProtocol.readAnswer(c.in());
            }, left, c);
        } finally {
            lock.unlock();
        }
    }

    private interface Exchange<T> {
        T run() throws IOException, MaskingException;
    }

    private <T> T await(Exchange<T> exchange, Duration timeout, Child c) throws MaskingException {
        Future<T> f = reader.submit(exchange::run);
        try {
            return f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            c.process().destroyForcibly();
            f.cancel(true);
            if (!closed && child == c) {
                child = spawn(Duration.ofSeconds(30));
            }
            throw new MaskingException(MaskingException.Kind.TIMEOUT, "masking took longer than " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MaskingException(MaskingException.Kind.TIMEOUT, "interrupted while waiting for the masking child");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof MaskingException m) {
                throw m;
            }
            c.process().destroyForcibly();
            throw new MaskingException(MaskingException.Kind.WORKER_DEAD, "masking child failed: "
                    + e.getCause().getClass().getSimpleName());
        }
    }

    @Override
    public WorkerHealth health() {
        Child c = child;
        return closed || c == null || !c.process().isAlive() ? WorkerHealth.DEAD : WorkerHealth.ALIVE;
    }

    /** The child's process id, for operators (and tests that kill it). */
    public long pid() {
        return child.process().pid();
    }

    @Override
    public void close() {
        closed = true;
        Child c = child;
        if (c != null) {
            c.process().destroyForcibly();
        }
        reader.shutdownNow();
    }
}
