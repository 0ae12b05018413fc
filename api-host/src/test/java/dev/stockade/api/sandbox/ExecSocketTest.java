package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.support.ExecFrames;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Exec over the WebSocket route with the JDK's client: stdin, stdout, stderr, exit status, and who may connect. */
@MicronautTest(transactional = false)
class ExecSocketTest extends PlatformTest {

    /** What one exec produced. */
    record Result(String out, String err, int exit) {
    }

    private CompletableFuture<WebSocket> connect(String path, String token, List<String> command, ExecFrames frames) {
        return connect(path, token, command, "", frames);
    }

    private CompletableFuture<WebSocket> connect(String path, String token, List<String> command, String extra,
                                                 ExecFrames frames) {
        String query = command.stream().map(c -> "command=" + URLEncoder.encode(c, StandardCharsets.UTF_8))
                .collect(Collectors.joining("&")) + extra;
        URI uri = URI.create("ws://127.0.0.1:" + server.getPort() + path + "/exec?" + query);
        WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b.buildAsync(uri, frames);
    }

    private String runningSandbox(String name) throws Exception {
        Requires.bubblewrap();
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, name), "p");
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner,
                Map.of("name", name, "cpu", "250m", "memory", "128Mi"));
        String path = "/v1/projects/" + project + "/sandboxes/" + created.text("id");
        // provisioning runs on worker threads
        Await.until("the sandbox to run", Await.LONG, () -> http.get(path, owner).text("state").equals("running"));
        return path;
    }

    private static void send(WebSocket ws, int channel, String text) throws Exception {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        ws.sendBinary(ByteBuffer.allocate(b.length + 1).put((byte) channel).put(b).flip(), true)
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    void aTtyExecRunsOnARealTerminalOfTheAskedSizeAndFollowsResizes() throws Exception {
        String path = runningSandbox("tty");
        ExecFrames frames = new ExecFrames();
        // the shell reports whether stdin is a terminal and its size, waits for a line, then reports the size again
        WebSocket ws = connect(path, ownerToken(), List.of("sh", "-c",
                "test -t 0 && echo is-a-tty; stty size; read line; stty size; echo \"got $line\" >&2; exit 7"),
                "&tty=true&cols=100&rows=30", frames).get(30, TimeUnit.SECONDS);
        frames.started.get(60, TimeUnit.SECONDS);
        // the first size report goes out before the resize below, or the shell could report the new size twice
        Await.until("the terminal's first size report", Await.LONG, () -> frames.out.toString(StandardCharsets.UTF_8)
                .contains("30 100"));
        send(ws, 4, "{\"cols\":132,\"rows\":43}");
        send(ws, 0, "hi\n");
        try {
            frames.exit.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no exit; the terminal showed: " + frames.out.toString(StandardCharsets.UTF_8), e);
        }
        assertThat(frames.exit.get()).isEqualTo(7);
        String screen = frames.out.toString(StandardCharsets.UTF_8);
        // one stream on a terminal (stderr included), lines ending CR LF, the typed line echoed by the terminal
        assertThat(screen).contains("is-a-tty\r\n30 100\r\n").contains("hi\r\n").contains("43 132\r\n")
                .contains("got hi");
        assertThat(frames.err.size()).isZero();

        // without tty, stdin is not a terminal
        ExecFrames plain = new ExecFrames();
        WebSocket ws2 = connect(path, ownerToken(), List.of("sh", "-c", "test -t 0 || echo no-tty"), plain)
                .get(30, TimeUnit.SECONDS);
        plain.started.get(60, TimeUnit.SECONDS);
        // the command reads no input and may end, and the socket close, before this end of input goes out
        ws2.sendBinary(ByteBuffer.wrap(new byte[] {0}), true);
        assertThat(plain.exit.get(60, TimeUnit.SECONDS)).isZero();
        assertThat(plain.out.toString(StandardCharsets.UTF_8)).isEqualTo("no-tty\n");
    }

    @Test
    void execRunsInTheSandboxWithStdinStdoutStderrAndExitStatusForProjectMembersOnly() throws Exception {
        Requires.bubblewrap();
        String owner = ownerToken();
        String org = createOrg(owner, "exec");
        String project = createProject(owner, org, "p");
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner,
                Map.of("name", "sh", "cpu", "250m", "memory", "128Mi"));
        String path = "/v1/projects/" + project + "/sandboxes/" + created.text("id");
        // provisioning runs on worker threads
        Await.until("the sandbox to run", Await.LONG, () -> http.get(path, owner).text("state").equals("running"));

        ExecFrames frames = new ExecFrames();
        WebSocket ws = connect(path, owner, List.of("sh", "-c", "cat; echo oops >&2; pwd; exit 3"), frames)
                .get(30, TimeUnit.SECONDS);
        frames.started.get(60, TimeUnit.SECONDS);
        byte[] hello = "hello\n".getBytes(StandardCharsets.UTF_8);
        ByteBuffer stdin = ByteBuffer.allocate(hello.length + 1).put((byte) 0).put(hello).flip();
        // data and the end of input back to back: the server must apply them in order (it once did not)
        ws.sendBinary(stdin, true).get(10, TimeUnit.SECONDS);
        ws.sendBinary(ByteBuffer.wrap(new byte[] {0}), true).get(10, TimeUnit.SECONDS); // end of stdin
        assertThat(frames.exit.get(60, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(frames.out.toString(StandardCharsets.UTF_8)).isEqualTo("hello\n/workspace\n");
        assertThat(frames.err.toString(StandardCharsets.UTF_8)).isEqualTo("oops\n");

        // no token: the handshake is refused; an org token that is no project member: refused too
        assertThatThrownBy(() -> connect(path, null, List.of("true"), new ExecFrames()).get(30, TimeUnit.SECONDS))
                .hasStackTraceContaining("status code 401");
        String outsider = createApiToken(owner, org, "outsider");
        assertThatThrownBy(() -> connect(path, outsider, List.of("true"), new ExecFrames()).get(30, TimeUnit.SECONDS))
                .hasStackTraceContaining("status code 403");
        String foreign = createApiToken(owner, createOrg(owner, "other"), "foreign");
        assertThatThrownBy(() -> connect(path, foreign, List.of("true"), new ExecFrames()).get(30, TimeUnit.SECONDS))
                .hasStackTraceContaining("status code 404");
    }

    @Test
    void aLargeOutputArrivesWholeWhenTheEndOfInputWaitsBehindIt() throws Exception {
        String path = runningSandbox("large");
        // the end of input is sent at once and stays unread behind megabytes of output: a platform that closed the
        // socket right after the exit frame reset the connection and cut the output's end (7 runs in 10 under load)
        for (int run = 0; run < 5; run++) {
            ExecFrames frames = new ExecFrames();
            WebSocket ws = connect(path, ownerToken(), List.of("head", "-c", "3000000", "/dev/zero"), frames)
                    .get(30, TimeUnit.SECONDS);
            frames.started.get(60, TimeUnit.SECONDS);
            ws.sendBinary(ByteBuffer.wrap(new byte[] {0}), true).get(10, TimeUnit.SECONDS);
            assertThat(frames.exit.get(60, TimeUnit.SECONDS)).as("run %d", run).isZero();
            assertThat(frames.out.size()).as("run %d", run).isEqualTo(3_000_000);
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
        }
    }
}
