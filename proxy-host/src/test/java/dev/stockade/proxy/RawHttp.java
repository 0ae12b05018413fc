package dev.stockade.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Speaks raw bytes to the proxy over a real socket: for requests a well-behaved client never sends. */
final class RawHttp {
    private RawHttp() {
    }

    /** Sends {@code request} and returns everything read until the proxy closes or 5 s pass. */
    static String exchange(int port, String request) throws IOException {
        return exchange(port, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    static String exchange(int port, byte[] request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request);
            s.getOutputStream().flush();
            return readHead(s.getInputStream());
        }
    }

    /** Reads the response head and a body of Content-Length bytes (or until close). */
    static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int contentLength = -1;
        int b;
        while ((b = in.read()) >= 0) {
            out.write(b);
            String text = out.toString(StandardCharsets.ISO_8859_1);
            if (text.endsWith("\r\n\r\n")) {
                for (String line : text.split("\r\n")) {
                    if (line.toLowerCase().startsWith("content-length:")) {
                        contentLength = Integer.parseInt(line.substring(15).strip());
                    }
                }
                break;
            }
        }
        if (contentLength > 0) {
            out.write(in.readNBytes(contentLength));
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }
}
