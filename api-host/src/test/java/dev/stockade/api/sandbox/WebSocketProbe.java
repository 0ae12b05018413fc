package dev.stockade.api.sandbox;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JDK WebSocket client run as its own process by {@link IngressWebSocketTest}: the JDK lets a client name the
 * {@code Host} it asks for (the ingress host) only with {@code jdk.httpclient.allowRestrictedHeaders=host}, read once
 * per JVM, which the test JVM cannot set for itself. Arguments: the platform's ws:// URL, the Host, a bearer token
 * ({@code -} for none), then messages to send; prints {@code refused <status>}, or each message it receives and then
 * {@code closed <code>}.
 */
public final class WebSocketProbe {
    private WebSocketProbe() {
    }

    public static void main(String[] args) throws Exception {
        LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder().header("Host", args[1]);
        if (!args[2].equals("-")) {
            b.header("Authorization", "Bearer " + args[2]);
        }
        WebSocket ws;
        try {
            ws = b.buildAsync(URI.create(args[0]), new WebSocket.Listener() {
                private final StringBuilder partial = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                    partial.append(data);
                    if (last) {
                        received.add(partial.toString());
                        partial.setLength(0);
                    }
                    w.request(1);
                    return null;
                }

                @Override
                public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
                    closed.complete(code);
                    return null;
                }
            }).get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException h) {
                System.out.println("refused " + h.getResponse().statusCode());
                return;
            }
            throw e;
        }
        System.out.println(received.poll(60, TimeUnit.SECONDS)); // the server's greeting
        for (int i = 3; i < args.length; i++) {
            ws.sendText(args[i], true).join();
            System.out.println(received.poll(60, TimeUnit.SECONDS));
        }
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
        try {
            System.out.println("closed " + closed.get(60, TimeUnit.SECONDS));
        } catch (CompletionException e) {
            System.out.println("closed abnormally");
        }
    }
}
