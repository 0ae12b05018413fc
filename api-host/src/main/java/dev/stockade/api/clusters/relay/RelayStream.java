package dev.stockade.api.clusters.relay;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.clusters.RelayHub;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * The relay's half of an upgraded stream (exec, attach, port-forward): sends the handshake the platform relayed to
 * the API server over a socket of its own; a refusal goes back as an ordinary answer, while a {@code 101} makes the
 * relay open a stream connection to the platform ({@code /v1/clusters/{id}/relay/streams/{requestId}}, tunnel token,
 * the API server's {@code 101} headers in {@code X-Stockade-Relay-Answer}) and carry bytes both ways until either side
 * closes. The platform bounds and audits the stream; the relay only joins the two sockets.
 */
final class RelayStream {
    static final int MAX_HEAD = 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where the relay reaches: the API server (with its TLS) and the platform (the JVM's roots). */
    record Ends(URI apiServer, SSLContext apiTls, URI platform, String clusterId, String tunnelToken) {
        @Override
        public String toString() {
            return "Ends[" + apiServer + ", " + platform + "]"; // never the tunnel token
        }
    }

    /** A response head: status and headers. */
    record Head(int status, Map<String, List<String>> headers) {
    }

    private RelayStream() {
    }

    /** Whether the envelope is a handshake (it carries an {@code Upgrade} header). */
    static boolean isUpgrade(RelayHub.Envelope e) {
        return e.headers() != null && e.headers().keySet().stream().anyMatch(k -> k.equalsIgnoreCase("upgrade"));
    }

    /**
     * Carries the handshake {@code e} with {@code auth} headers (the relay's impersonation, or the request JWT);
     * returns the answer to post when the API server did not switch, or {@code null} once a switched stream ended.
     */
    static RelayHub.Answer carry(Ends ends, RelayHub.Envelope e, Map<String, List<String>> auth) throws IOException {
        try (Socket api = connect(ends.apiServer(), ends.apiTls())) {
            OutputStream toApi = api.getOutputStream();
            toApi.write(handshake(ends.apiServer(), e, auth));
            toApi.flush();
            InputStream fromApi = new BufferedInputStream(api.getInputStream());
            Head head = readHead(fromApi);
            if (head.status() != 101) {
                return new RelayHub.Answer(head.status(), head.headers(),
                        Base64.getEncoder().encodeToString(body(fromApi, head)));
            }
            api.setSoTimeout(0); // a stream may stay quiet; the platform bounds its idle time
            try (Socket platform = connect(ends.platform(), ends.platform().getScheme().equals("https")
                    ? sslDefault() : null)) {
                OutputStream toPlatform = platform.getOutputStream();
                toPlatform.write(streamRequest(ends, e.id(), head));
                toPlatform.flush();
                InputStream fromPlatform = new BufferedInputStream(platform.getInputStream());
                if (readHead(fromPlatform).status() != 101) {
                    return null; // the platform no longer waits for this stream
                }
                platform.setSoTimeout(0);
                Thread up = new Thread(() -> pump(fromPlatform, toApi, api, platform), "relay-stream-up");
                up.setDaemon(true);
                up.start();
                pump(fromApi, toPlatform, api, platform);
                return null;
            }
        }
    }

    private static byte[] handshake(URI apiServer, RelayHub.Envelope e, Map<String, List<String>> auth) {
        if ((e.method() + e.path()).chars().anyMatch(c -> c <= 0x20 || c >= 0x7f)) {
            throw new IllegalArgumentException("a request line the relay cannot send as it is");
        }
        StringBuilder out = new StringBuilder();
        String base = apiServer.getRawPath() == null ? "" : apiServer.getRawPath().replaceAll("/+$", "");
        out.append(e.method()).append(' ').append(base).append(e.path()).append(" HTTP/1.1\r\n");
        header(out, "Host", apiServer.getRawAuthority());
        e.headers().forEach((name, values) -> {
            if (!List.of("host", "connection", "content-length", "authorization").contains(name.toLowerCase())) {
                values.forEach(v -> header(out, name, v));
            }
        });
        header(out, "Connection", "Upgrade");
        header(out, "Content-Length", "0");
        auth.forEach((name, values) -> values.forEach(v -> header(out, name, v)));
        return out.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] streamRequest(Ends ends, String requestId, Head head) throws IOException {
        StringBuilder out = new StringBuilder();
        out.append("GET /v1/clusters/").append(ends.clusterId()).append("/relay/streams/").append(requestId)
                .append(" HTTP/1.1\r\n");
        header(out, "Host", ends.platform().getRawAuthority());
        header(out, "Authorization", "Bearer " + ends.tunnelToken());
        header(out, "Connection", "Upgrade");
        header(out, "Upgrade", "stockade-relay-stream");
        header(out, "X-Stockade-Relay-Answer", Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(
                new RelayHub.Answer(101, head.headers(), null))));
        return out.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** One header line; a name or value able to end the line is refused, so no header can be smuggled in. */
    private static void header(StringBuilder out, String name, String value) {
        if (name.chars().anyMatch(c -> c <= 0x20 || c == ':' || c >= 0x7f)
                || value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
            throw new IllegalArgumentException("a header the relay cannot send as it is: `" + name + "`");
        }
        out.append(name).append(": ").append(value).append("\r\n");
    }

    static Head readHead(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0 || bytes.size() >= MAX_HEAD) {
                throw new IOException("the answer's head ended early or is over " + MAX_HEAD + " bytes");
            }
            bytes.write(b);
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String[] lines = bytes.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        String[] status = lines[0].split(" ", 3);
        if (status.length < 2 || !status[0].startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP/1.1 answer");
        }
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(lines[i].substring(0, colon).strip(), k -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).strip());
            }
        }
        try {
            return new Head(Integer.parseInt(status[1]), headers);
        } catch (NumberFormatException ex) {
            throw new IOException("the answer's status is not a number");
        }
    }

    private static byte[] body(InputStream in, Head head) throws IOException {
        List<String> length = head.headers().get("Content-Length");
        int n = length == null ? 0 : Integer.parseInt(length.get(0));
        if (n < 0 || n > ClusterRelay.MAX_ANSWER_BYTES) {
            throw new IOException("the API server's refusal is larger than the relay carries");
        }
        return in.readNBytes(n);
    }

    private static void pump(InputStream in, OutputStream out, Socket a, Socket b) {
        byte[] buffer = new byte[16 * 1024];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side left: the stream is over
        } finally {
            closeQuietly(a);
            closeQuietly(b);
        }
    }

    private static Socket connect(URI target, SSLContext tls) throws IOException {
        int port = target.getPort() > 0 ? target.getPort() : tls != null ? 443 : 80;
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress(target.getHost(), port), 10_000);
        plain.setSoTimeout(60_000); // for the handshake's answer
        if (tls == null) {
            return plain;
        }
        SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket(plain, target.getHost(), port, true);
        SSLParameters parameters = s.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        s.setSSLParameters(parameters);
        s.startHandshake();
        return s;
    }

    private static SSLContext sslDefault() throws IOException {
        try {
            return SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IOException("this JVM has no default TLS context", e);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
