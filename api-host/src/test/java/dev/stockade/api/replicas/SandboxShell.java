package dev.stockade.api.replicas;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A command inside a running local sandbox through the platform's exec WebSocket (channel 1 stdout, 2 stderr, 3 the
 * exit status, 5 started; an empty frame on channel 0 ends stdin): how a test outside the platform's process makes a
 * request from inside a sandbox.
 */
final class SandboxShell {
    private final HttpClient client = HttpClient.newHttpClient();
    private final int platformPort;
    private final String token;

    SandboxShell(int platformPort, String token) {
        this.platformPort = platformPort;
        this.token = token;
    }

    /** Runs {@code sh -c script} in the sandbox at {@code sandboxPath}; its stdout and stderr together. */
    String run(String sandboxPath, String script) throws Exception {
        String query = List.of("sh", "-c", script).stream()
                .map(c -> "command=" + URLEncoder.encode(c, StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        Frames frames = new Frames();
        WebSocket ws = client.newWebSocketBuilder().header("Authorization", "Bearer " + token)
                .buildAsync(URI.create("ws://127.0.0.1:" + platformPort + sandboxPath + "/exec?" + query), frames)
                .get(30, TimeUnit.SECONDS);
        try {
            frames.started.get(60, TimeUnit.SECONDS);
            ws.sendBinary(ByteBuffer.wrap(new byte[] {0}), true); // no input; the command may already have ended
            frames.exit.get(60, TimeUnit.SECONDS);
            return frames.out.toString(StandardCharsets.UTF_8) + frames.err.toString(StandardCharsets.UTF_8);
        } finally {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        }
    }

    private static final class Frames implements WebSocket.Listener {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final CompletableFuture<Integer> exit = new CompletableFuture<>();
        final CompletableFuture<Void> started = new CompletableFuture<>();
        private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] b = new byte[data.remaining()];
            data.get(b);
            partial.writeBytes(b);
            if (last) {
                byte[] frame = partial.toByteArray();
                partial.reset();
                switch (frame[0]) {
                    case 1 -> out.write(frame, 1, frame.length - 1);
                    case 2 -> err.write(frame, 1, frame.length - 1);
                    case 3 -> exit.complete(ByteBuffer.wrap(frame, 1, 4).getInt());
                    case 5 -> started.complete(null);
                    default -> { }
                }
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
            exit.completeExceptionally(new IllegalStateException("closed " + status + " " + reason));
            started.completeExceptionally(new IllegalStateException("closed " + status + " " + reason));
            return null;
        }
    }
}
