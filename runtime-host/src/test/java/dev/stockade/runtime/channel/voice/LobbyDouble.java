package dev.stockade.runtime.channel.voice;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local meeting page standing for Google Meet's waiting room, driven by the real browser: an "Ask to join" button
 * that asks for the microphone, then admission after a delay, never, a refusal, or admission followed by the host
 * ending the call. In the call there is a "Leave call" button, as on Meet. The page reports what happened to it
 * ({@code asked}, {@code microphone}, {@code admitted}, {@code left}, {@code ended}) with synchronous requests.
 */
final class LobbyDouble implements AutoCloseable {
    private static final String PAGE = """
            <!doctype html><html><head><title>Meeting</title></head><body>
            <div id="status">Ready to join?</div>
            <button id="join">Ask to join</button>
            <script>
            const q = new URLSearchParams(location.search);
            const mode = location.pathname.split('/').pop();
            const status = document.getElementById('status');
            function ev(w) { const x = new XMLHttpRequest(); x.open('POST', '/event?what=' + w, false); x.send(); }
            document.getElementById('join').onclick = async () => {
              ev('asked');
              document.getElementById('join').remove();
              status.textContent = 'Asking to be let in';
              try { await navigator.mediaDevices.getUserMedia({audio: true}); ev('microphone'); }
              catch (e) { ev('no-microphone-' + e.name); }
              if (mode === 'never') return;
              if (mode === 'refuse') {
                setTimeout(() => { status.textContent = "You can't join this call"; ev('refused'); }, +q.get('after'));
                return;
              }
              setTimeout(admit, +q.get('after'));
            };
            function admit() {
              const b = document.createElement('button');
              b.setAttribute('aria-label', 'Leave call');
              b.textContent = 'Leave';
              b.onclick = () => { b.remove(); status.textContent = 'You left the meeting'; ev('left'); };
              document.body.appendChild(b);
              status.textContent = 'In the call';
              ev('admitted');
              if (mode === 'hangup') {
                setTimeout(() => { b.remove(); status.textContent = 'The call has ended'; ev('ended'); }, +q.get('end'));
              }
            }
            </script></body></html>
            """;

    private final HttpServer server;
    final List<String> events = new CopyOnWriteArrayList<>();

    LobbyDouble() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/meet/", ex -> answer(ex, 200, "text/html", PAGE));
        server.createContext("/event", ex -> {
            events.add(ex.getRequestURI().getQuery().substring("what=".length()));
            answer(ex, 204, "text/plain", "");
        });
        server.start();
    }

    /** A meeting link: {@code mode} admit, never, refuse or hangup; {@code after} ms to the host's decision. */
    URI meeting(String mode, long after, long end) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/meet/" + mode + "?after=" + after
                + "&end=" + end);
    }

    private static void answer(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            ex.getResponseBody().write(b);
        }
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
