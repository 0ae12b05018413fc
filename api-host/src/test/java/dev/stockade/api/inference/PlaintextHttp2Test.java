package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With {@code micronaut.server.http-version: 2.0} the platform's plaintext listener speaks HTTP/2 with prior
 * knowledge (what the AWS SDKs' default Bedrock clients send to an {@code http://} endpoint) and still HTTP/1.1 to a
 * client that speaks only that, on the same port. Raw sockets, so no client library negotiates anything on the
 * test's behalf.
 */
@MicronautTest(transactional = false)
class PlaintextHttp2Test extends PlatformTest {
    /** RFC 9113 section 3.4: the client connection preface, then an empty SETTINGS frame. */
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY_SETTINGS = {0, 0, 0, 4, 0, 0, 0, 0, 0};
    private static final int SETTINGS = 4;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("micronaut.server.http-version", "2.0");
    }

    @Test
    void aPriorKnowledgeHttp2ClientIsAnsweredWithTheServersSettings() throws IOException {
        try (Socket s = new Socket(server.getHost(), server.getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(PREFACE);
            out.write(EMPTY_SETTINGS);
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] header = new byte[9];
            in.readFully(header);
            int type = header[3] & 0xff;
            int stream = ((header[5] & 0x7f) << 24) | ((header[6] & 0xff) << 16) | ((header[7] & 0xff) << 8)
                    | (header[8] & 0xff);
            assertThat(type).as("the server's first frame is SETTINGS (an HTTP/1.1 server answers text)")
                    .isEqualTo(SETTINGS);
            assertThat(stream).isZero();
        }
    }

    /**
     * Refused 431 with a problem, as in HTTP/1.1-only mode: {@code kernel.web.HeaderLimit} finds the HTTP codec by
     * type, since Netty's cleartext HTTP/2 handler adds it without Micronaut's name.
     */
    @Test
    void anOversizedHeaderBlockIsStillRefusedWithAProblem() throws IOException {
        try (Socket s = new Socket(server.getHost(), server.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "x".repeat(40_000)
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readNBytes(4096), StandardCharsets.UTF_8);
            assertThat(answer).matches("(?s)HTTP/1\\.1 431 .*").contains("application/problem+json");
        }
    }

    @Test
    void anHttp11ClientOnTheSamePortIsStillServedHttp11() throws IOException {
        try (Socket s = new Socket(server.getHost(), server.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 200").contains("\"status\":\"ok\"");
        }
    }
}
