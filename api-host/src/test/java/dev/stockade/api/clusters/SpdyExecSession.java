package dev.stockade.api.clusters;

import io.netty.handler.codec.spdy.SpdyHeaders;
import java.io.IOException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * An exec or attach over SPDY/3.1 with protocol {@code v4.channel.k8s.io}, as the kubelet serves it: the client opens
 * one stream per part, named by its {@code streamtype} header ({@code error} always, {@code stdin}, {@code stdout},
 * {@code stderr} as the query asked, {@code resize} with a tty); once all have come the command starts (exec) or the
 * session joins the container's running process (attach). stdin's bytes go to the process and its end closes the
 * process's stdin (for attach the container's, as {@code stdinOnce} does); when the process ends, stdout and stderr are
 * finished and the {@code metav1.Status} is written on the error stream (an exec's exit code as the {@code ExitCode}
 * cause; an attach ends in success), then the connection closes, as the kubelet's does.
 */
final class SpdyExecSession extends SpdyStreams implements StandInProcess.Attachment {
    /** The parts of a session, as {@code streamtype} names them. */
    enum Part {
        ERROR, STDIN, STDOUT, STDERR, RESIZE;

        static Optional<Part> of(String streamType) {
            for (Part p : values()) {
                if (p.name().toLowerCase(Locale.ROOT).equals(streamType)) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        }
    }

    /** The streams a session expects: the query's {@code stdin}, {@code stdout}, {@code stderr} and {@code tty}. */
    record Options(boolean stdin, boolean stdout, boolean stderr, boolean tty) {
        int streams() {
            return 1 + (stdin ? 1 : 0) + (stdout ? 1 : 0) + (stderr ? 1 : 0) + (tty ? 1 : 0);
        }
    }

    /** What the session runs: a new process for exec, or the container's running one for attach. */
    sealed interface Target {
    }

    record Exec(List<String> command) implements Target {
    }

    record Attach(Supplier<Optional<StandInProcess>> container) implements Target {
    }

    private final Options options;
    private final Target target;
    private final Map<Part, Integer> streams = Collections.synchronizedMap(new EnumMap<>(Part.class));
    private volatile StandInProcess process;
    private boolean started;

    SpdyExecSession(Options options, Target target) {
        this.options = options;
        this.target = target;
    }

    @Override
    Optional<String> refusal(SpdyHeaders headers) {
        return Optional.empty(); // the kubelet answers every stream and ignores one of an unknown type
    }

    @Override
    void opened(int streamId, SpdyHeaders headers) {
        Part.of(headers.getAsString(STREAM_TYPE)).ifPresent(p -> streams.put(p, streamId));
        if (!started && streams.size() == options.streams()) {
            started = true;
            start();
        }
    }

    private void start() {
        if (target instanceof Exec exec) {
            try {
                process = StandInProcess.start(exec.command(), this);
            } catch (IOException e) {
                fail("error executing command in container: " + e.getMessage());
            }
        } else if (target instanceof Attach attach) {
            Optional<StandInProcess> running = attach.container().get().filter(StandInProcess::alive);
            running.ifPresentOrElse(p -> {
                process = p;
                p.attach(this);
            }, () -> fail("error attaching to container: the container is not running"));
        }
    }

    @Override
    void received(int streamId, byte[] bytes) {
        StandInProcess p = process;
        if (p != null && Integer.valueOf(streamId).equals(streams.get(Part.STDIN))) {
            p.input(bytes); // small writes into a pipe the process drains; a resize's bytes are not used
        }
    }

    @Override
    void remoteFinished(int streamId) {
        StandInProcess p = process;
        if (p != null && Integer.valueOf(streamId).equals(streams.get(Part.STDIN))) {
            p.closeInput();
        }
    }

    @Override
    void reset(int streamId) {
        // the client leaves by closing the connection
    }

    @Override
    void closed() {
        StandInProcess p = process;
        if (p == null) {
            return;
        }
        if (target instanceof Exec) {
            p.destroy();
        } else {
            p.detach(this); // the container runs on without this session
        }
    }

    @Override
    public void output(int fd, byte[] bytes) {
        Integer id = streams.get(fd == 1 ? Part.STDOUT : Part.STDERR);
        if (id != null) {
            send(id, bytes);
        }
    }

    @Override
    public void exited(int code) {
        finishOutput();
        ended(Kubelet.execStatus(target instanceof Exec ? code : 0));
    }

    /** Ends the session with an internal error the kubelet would report (nothing runs, or nothing to attach to). */
    private void fail(String message) {
        finishOutput();
        ended("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + "\"Internal error occurred: " + message.replace("\"", "'") + "\",\"reason\":\"InternalError\","
                + "\"code\":500}");
    }

    private void finishOutput() {
        for (Part p : List.of(Part.STDOUT, Part.STDERR)) {
            Integer id = streams.get(p);
            if (id != null) {
                finish(id);
            }
        }
    }

    private void ended(String status) {
        int error = streams.get(Part.ERROR);
        send(error, status);
        finish(error);
        end();
    }
}
