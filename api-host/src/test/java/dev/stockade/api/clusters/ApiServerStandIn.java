package dev.stockade.api.clusters;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on loopback standing for a cluster's Kubernetes API server (which cannot run here): it records
 * every request and answers as the API server does: a pod list, an echo of a write as the created object, a watch
 * that streams one event and then stays open, and 204 for {@code /empty}.
 */
final class ApiServerStandIn implements AutoCloseable {
    /** One request as the API server saw it. */
    record Seen(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
    /** Counted down when a watch's client went away (its stream was cut). */
    final CountDownLatch watchClosed = new CountDownLatch(1);
    private final HttpServer server;

    ApiServerStandIn() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        seen.add(new Seen(ex.getRequestMethod(), ex.getRequestURI().getRawPath(), ex.getRequestURI().getRawQuery(),
                Map.copyOf(ex.getRequestHeaders()), body));
        String query = ex.getRequestURI().getRawQuery();
        if (query != null && query.contains("watch=true")) {
            watch(ex);
            return;
        }
        if (ex.getRequestURI().getPath().equals("/empty")) {
            ex.sendResponseHeaders(204, -1);
            ex.close();
            return;
        }
        String answer = ex.getRequestMethod().equals("GET")
                ? "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"web-1\"}}]}"
                : body;
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.getResponseHeaders().add("Audit-Id", "0f6b1d3e");
        ex.getResponseHeaders().add("Set-Cookie", "session=cluster-internal");
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(ex.getRequestMethod().equals("POST") ? 201 : 200, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    /** One event, then a heartbeat line every 200 ms until the client is gone. */
    private void watch(HttpExchange ex) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        try {
            out.write("{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"web-1\"}}}\n"
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            for (int i = 0; i < 600; i++) { // at most two minutes: a test never waits that long
                TimeUnit.MILLISECONDS.sleep(200); // the pace of an idle watch's bookmarks
                out.write("{\"type\":\"BOOKMARK\",\"object\":{}}\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            watchClosed.countDown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ex.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
