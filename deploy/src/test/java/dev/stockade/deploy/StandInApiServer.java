package dev.stockade.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the chart's {@code lookup} calls reach while Helm renders: helm-java's template is a dry run that still asks
 * the cluster, and no Kubernetes API server runs here. It answers the two requests {@code lookup "v1" "Secret"}
 * makes (the v1 discovery document and a Secret read) from secrets a test puts in, and 404 for anything else, so a
 * render sees either an empty cluster or the secrets a previous install left. Started once, on loopback; its
 * kubeconfig goes where surefire's {@code KUBECONFIG} points.
 */
final class StandInApiServer {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, ObjectNode> SECRETS = new ConcurrentHashMap<>();
    private static volatile boolean started;

    private StandInApiServer() {
    }

    /** Starts the server and writes its kubeconfig, once per test JVM. */
    static synchronized void ensureStarted() {
        if (started) {
            return;
        }
        String kubeconfig = System.getenv("KUBECONFIG");
        if (kubeconfig == null || kubeconfig.isBlank()) {
            throw new IllegalStateException("KUBECONFIG is not set: run the tests through Maven (deploy/pom.xml sets it),"
                    + " so Helm's lookup never reaches a real cluster by accident");
        }
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", StandInApiServer::answer);
            server.setExecutor(null);
            server.start();
            Path file = Path.of(kubeconfig);
            Files.createDirectories(file.getParent());
            Files.writeString(file, """
                    apiVersion: v1
                    kind: Config
                    clusters: [{name: stand-in, cluster: {server: "http://127.0.0.1:%d"}}]
                    users: [{name: stand-in, user: {token: stand-in}}]
                    contexts: [{name: stand-in, context: {cluster: stand-in, user: stand-in}}]
                    current-context: stand-in
                    """.formatted(server.getAddress().getPort()));
            started = true;
        } catch (IOException e) {
            throw new UncheckedIOException("the stand-in API server cannot start", e);
        }
    }

    /** Makes {@code lookup} find a Secret with these (base64) data in {@code namespace}. */
    static void putSecret(String namespace, String name, Map<String, String> data) {
        ObjectNode secret = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Secret");
        secret.putObject("metadata").put("name", name).put("namespace", namespace);
        data.forEach(secret.putObject("data")::put);
        SECRETS.put(namespace + "/" + name, secret);
    }

    private static void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String[] parts = path.split("/");
        if (path.equals("/api/v1")) {
            reply(exchange, 200, """
                    {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[
                     {"name":"secrets","singularName":"secret","namespaced":true,"kind":"Secret",
                      "verbs":["create","delete","get","list","patch","update","watch"]}]}""");
        } else if (parts.length == 7 && path.startsWith("/api/v1/namespaces/") && parts[5].equals("secrets")
                && SECRETS.containsKey(parts[4] + "/" + parts[6])) {
            reply(exchange, 200, JSON.writeValueAsString(SECRETS.get(parts[4] + "/" + parts[6])));
        } else {
            reply(exchange, 404, """
                    {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,
                     "message":"not found"}""");
        }
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
