package dev.stockade.api.support;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A command inside a running local sandbox through the platform's exec WebSocket (channel 1 stdout, 2 stderr, 3 the
 * exit status, 5 started; an empty frame on channel 0 ends stdin): how a test outside the platform's process makes a
 * request from inside a sandbox.
 */
public final class SandboxShell {
    private final HttpClient client = HttpClient.newHttpClient();
    private final int platformPort;
    private final String token;

    public SandboxShell(int platformPort, String token) {
        this.platformPort = platformPort;
        this.token = token;
    }

    /** Runs {@code sh -c script} in the sandbox at {@code sandboxPath}; its stdout and stderr together. */
    public String run(String sandboxPath, String script) throws Exception {
        String query = List.of("sh", "-c", script).stream()
                .map(c -> "command=" + URLEncoder.encode(c, StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        ExecFrames frames = new ExecFrames();
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
}
