package dev.stockade.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.java_websocket.WebSocketAdapter;
import org.java_websocket.WebSocketImpl;
import org.java_websocket.drafts.Draft;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.server.DefaultWebSocketServerFactory;
import org.junit.jupiter.api.Test;

class LoopbackWebSocketServerTest {
    /** Sends what the test tells it to, from the test's thread, as a double does when its test plays the remote side. */
    static final class Speaker extends LoopbackWebSocketServer {
        volatile org.java_websocket.WebSocket client;

        @Override
        public void onOpen(org.java_websocket.WebSocket conn, ClientHandshake handshake) {
            client = conn;
        }

        @Override
        public void onClose(org.java_websocket.WebSocket conn, int code, String reason, boolean remote) {
            // the test ends it
        }

        @Override
        public void onMessage(org.java_websocket.WebSocket conn, String message) {
            // the client's acknowledgements need no answer
        }
    }

    /**
     * Stops the selector, while armed, at its last step before it sets a connection's key back to {@code OP_READ}: it
     * asks {@code isFlushAndClose} only once it found the queue empty. A loaded machine stops it there by descheduling
     * it; this stops it there on purpose, so that the test can send at that moment.
     */
    static final class Gate extends DefaultWebSocketServerFactory {
        final Semaphore reached = new Semaphore(0);
        final Semaphore go = new Semaphore(0);
        volatile boolean armed;

        @Override
        public WebSocketImpl createWebSocket(WebSocketAdapter a, Draft d) {
            return createWebSocket(a, List.of(d));
        }

        @Override
        public WebSocketImpl createWebSocket(WebSocketAdapter a, List<Draft> drafts) {
            return new WebSocketImpl(a, drafts) {
                @Override
                public boolean isFlushAndClose() {
                    if (armed) {
                        reached.release();
                        go.acquireUninterruptibly();
                    }
                    return super.isFlushAndClose();
                }
            };
        }

        void awaitSelector() throws InterruptedException {
            assertThat(reached.tryAcquire(10, TimeUnit.SECONDS)).as("the selector reaches its last step").isTrue();
        }
    }

    /**
     * The case that stranded a realtime double's last frame: the selector drained the queue in a round that also read
     * from the client (so the key left the selected set), and a frame sent from another thread landed just before the
     * key went back to {@code OP_READ}. No later send came to carry it out; it must leave all the same.
     */
    @Test
    void aFrameSentJustAsTheSelectorDropsWriteInterestStillLeaves() throws Exception {
        Gate gate = new Gate();
        Speaker server = new Speaker();
        server.setWebSocketFactory(gate);
        server.listen();
        Semaphore turns = new Semaphore(0);
        Semaphore answers = new Semaphore(0);
        WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + server.getPort() + "/"), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        if (data.toString().equals("turn")) {
                            w.sendText("ack", true).join(); // in the server's socket buffer before the test goes on
                            turns.release();
                        } else {
                            answers.release();
                        }
                        w.request(1);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        try {
            Await.until("the server sees the client", () -> server.client != null);
            gate.armed = true;
            server.client.send("turn");
            gate.awaitSelector(); // the round that wrote "turn" and read nothing
            assertThat(turns.tryAcquire(10, TimeUnit.SECONDS)).as("the turn arrives and is acknowledged").isTrue();
            gate.go.release();
            gate.awaitSelector(); // the round that read the acknowledgement: the key left the selected set
            server.client.send("answer");
            gate.armed = false;
            gate.go.release();
            assertThat(answers.tryAcquire(10, TimeUnit.SECONDS)).as("the answer arrives").isTrue();
        } finally {
            gate.armed = false;
            gate.go.release(2);
            ws.abort();
            server.stop(1000);
        }
    }
}
