package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The ordering a fast command produces and a test against the platform only hits by chance: the sandbox sends the
 * start, the output and the exit status and closes the socket before this side sent its end of input. The socket
 * here is the JDK's after such a close: every send fails with "Output closed".
 */
class ExecSessionTest {

    @Test
    void theExitStatusDecidesEvenWhenTheSocketClosedBeforeTheEndOfInputWentOut() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExecSession session = new ExecSession(out, new ByteArrayOutputStream());
        ClosedSocket ws = new ClosedSocket();
        session.onBinary(ws, ByteBuffer.wrap(new byte[] {5}), true);
        session.onBinary(ws, ByteBuffer.wrap(new byte[] {1, 'h', 'i'}), true);
        session.onBinary(ws, ByteBuffer.wrap(new byte[] {3, 0, 0, 0, 7}), true);
        session.onClose(ws, WebSocket.NORMAL_CLOSURE, "");

        assertThat(session.run(ws, null, null, true)).isEqualTo(7);
        assertThat(session.run(ws, new java.io.ByteArrayInputStream("typed".getBytes(StandardCharsets.UTF_8)),
                null, false)).isEqualTo(7);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("hi");
    }

    @Test
    void aSocketThatClosesWithoutAnExitStatusIsAFailureNamingTheClose() {
        ExecSession session = new ExecSession(new ByteArrayOutputStream(), new ByteArrayOutputStream());
        ClosedSocket ws = new ClosedSocket();
        session.onBinary(ws, ByteBuffer.wrap(new byte[] {5}), true);
        session.onClose(ws, 1011, "exec failed");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> session.run(ws, null, null, true))
                .hasRootCauseInstanceOf(Failure.class)
                .rootCause().hasMessageContaining("without an exit status").hasMessageContaining("1011");
    }

    @Test
    void thePlatformsRefusalClosesAreRefusalsWithExitOne() {
        Failure stopped = ExecSession.closed(4409, "the sandbox is stopped");
        assertThat(stopped.exit()).isEqualTo(Exit.REFUSED);
        assertThat(stopped.getMessage()).contains("not running", "the sandbox is stopped", "4409", "sandbox start");
        Failure unknown = ExecSession.closed(4404, "sandbox not found");
        assertThat(unknown.exit()).isEqualTo(Exit.REFUSED);
        assertThat(unknown.getMessage()).contains("sandbox not found", "4404");
        assertThat(ExecSession.closed(1011, "exec failed").exit()).isEqualTo(Exit.USAGE);
    }

    /** A JDK socket after the peer's close: input is over, output refuses every frame. */
    private static final class ClosedSocket implements WebSocket {
        @Override
        public CompletableFuture<WebSocket> sendText(CharSequence data, boolean last) {
            return closed();
        }

        @Override
        public CompletableFuture<WebSocket> sendBinary(ByteBuffer data, boolean last) {
            return closed();
        }

        @Override
        public CompletableFuture<WebSocket> sendPing(ByteBuffer message) {
            return closed();
        }

        @Override
        public CompletableFuture<WebSocket> sendPong(ByteBuffer message) {
            return closed();
        }

        @Override
        public CompletableFuture<WebSocket> sendClose(int statusCode, String reason) {
            return closed();
        }

        private static CompletableFuture<WebSocket> closed() {
            return CompletableFuture.failedFuture(new IOException("Output closed"));
        }

        @Override
        public void request(long n) {
        }

        @Override
        public String getSubprotocol() {
            return "";
        }

        @Override
        public boolean isOutputClosed() {
            return true;
        }

        @Override
        public boolean isInputClosed() {
            return true;
        }

        @Override
        public void abort() {
        }
    }
}
