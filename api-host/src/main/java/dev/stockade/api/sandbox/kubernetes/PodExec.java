package dev.stockade.api.sandbox.kubernetes;

import dev.stockade.api.sandbox.provision.ExecProcess;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;

/** An exec in a pod through the API server's exec subresource: fabric8's {@link ExecWatch} as an {@link ExecProcess}. */
record PodExec(ExecWatch watch, boolean tty) implements ExecProcess {
    @Override
    public OutputStream stdin() {
        return watch.getInput();
    }

    @Override
    public InputStream stdout() {
        return watch.getOutput();
    }

    @Override
    public InputStream stderr() {
        return tty ? InputStream.nullInputStream() : watch.getError();
    }

    @Override
    public void resize(int cols, int rows) {
        if (tty && cols > 0 && rows > 0) {
            watch.resize(cols, rows);
        }
    }

    @Override
    public CompletableFuture<Integer> exit() {
        return watch.exitCode();
    }

    @Override
    public void close() {
        watch.close();
    }
}
