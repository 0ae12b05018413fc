package dev.stockade.runtime.channel.voice;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local meeting page standing for Google Meet's waiting room, driven by the real browser: an "Ask to join" button
 * that asks for the microphone, then admission after a delay, never, a refusal, or admission followed by the host
 * ending the call. In the call there is a "Leave call" button, as on Meet. The page reports what happened to it
 * ({@code asked}, {@code microphone}, {@code admitted}, {@code left}, {@code ended}) with synchronous requests, and,
 * once it has the microphone, the level of what it hears there (WebAudio's analyser, RMS every 100 ms).
 *
 * <p>With {@link #requireSignIn} it also stands for the account provider's sign-in: a meeting opened without the
 * session cookie is sent to an email step, then a password step ("Wrong password" on a mismatch), then optionally a
 * "Verify it's you" challenge; success sets a persistent cookie, as the provider's session cookie is persistent.
 */
public final class LobbyDouble implements AutoCloseable {
    private static final String PAGE = """
            <!doctype html><html><head><title>Meeting</title></head><body>
            <div id="status">Ready to join?</div>
            <button id="join">Ask to join</button>
            <script>
            const q = new URLSearchParams(location.search);
            const mode = location.pathname.split('/').pop();
            const status = document.getElementById('status');
            function ev(w) { const x = new XMLHttpRequest(); x.open('POST', '/event?what=' + w, false); x.send(); }
            function measure(stream) {
              const ctx = new AudioContext();
              const analyser = ctx.createAnalyser();
              analyser.fftSize = 2048;
              ctx.createMediaStreamSource(stream).connect(analyser);
              const mute = ctx.createGain();
              mute.gain.value = 0;
              analyser.connect(mute).connect(ctx.destination);
              ctx.resume();
              const buf = new Float32Array(analyser.fftSize);
              setInterval(() => {
                analyser.getFloatTimeDomainData(buf);
                let sum = 0;
                for (const v of buf) sum += v * v;
                fetch('/level?rms=' + Math.sqrt(sum / buf.length), {method: 'POST'});
              }, 100);
            }
            document.getElementById('join').onclick = async () => {
              ev('asked');
              document.getElementById('join').remove();
              status.textContent = 'Asking to be let in';
              try { measure(await navigator.mediaDevices.getUserMedia({audio: true})); ev('microphone'); }
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
    private static final String FORM = "<!doctype html><html><head><title>Sign in</title></head><body><h1>%s</h1>"
            + "<p>%s</p><form method=\"post\"><input type=\"hidden\" name=\"continue\" value=\"%s\">%s"
            + "<button type=\"submit\">Next</button></form></body></html>";

    private final HttpServer server;
    private volatile String session = UUID.randomUUID().toString();
    public final List<String> events = new CopyOnWriteArrayList<>();
    /** The levels the page measured at its microphone, oldest first. */
    public final List<Double> levels = new CopyOnWriteArrayList<>();
    /** Every request to the sign-in pages, as {@code METHOD path}. */
    public final List<String> signInVisits = new CopyOnWriteArrayList<>();
    private volatile MeetingAccount account;
    private volatile boolean challenge;

    public LobbyDouble() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/meet/", this::meeting);
        server.createContext("/signin/", this::signIn);
        server.createContext("/event", ex -> {
            events.add(ex.getRequestURI().getQuery().substring("what=".length()));
            answer(ex, 204, "");
        });
        server.createContext("/level", ex -> {
            levels.add(Double.parseDouble(ex.getRequestURI().getQuery().substring("rms=".length())));
            answer(ex, 204, "");
        });
        server.start();
    }

    /** A meeting link: {@code mode} admit, never, refuse or hangup; {@code after} ms to the host's decision. */
    public URI meeting(String mode, long after, long end) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/meet/" + mode + "?after=" + after
                + "&end=" + end);
    }

    /** From now on a meeting needs the signed-in account; {@code challenge} ends a correct password in a challenge. */
    public void requireSignIn(MeetingAccount a, boolean challengeAfterPassword) {
        this.account = a;
        this.challenge = challengeAfterPassword;
    }

    /** Ends every session the sign-in handed out, as a provider does when the password changes. */
    public void forgetSessions() {
        session = UUID.randomUUID().toString();
    }

    private void meeting(HttpExchange ex) throws IOException {
        String cookies = String.join(";", ex.getRequestHeaders().getOrDefault("Cookie", List.of()));
        if (account != null && !cookies.contains("SID=" + session)) {
            redirect(ex, "/signin/identifier?continue=" + encode(ex.getRequestURI().toString()));
            return;
        }
        answer(ex, 200, PAGE);
    }

    private void signIn(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        signInVisits.add(ex.getRequestMethod() + " " + path);
        Map<String, String> form = "POST".equals(ex.getRequestMethod()) ? form(ex) : query(ex);
        String next = form.getOrDefault("continue", "/");
        String email = "<input type=\"email\" name=\"identifier\" autofocus>";
        String password = "<input type=\"password\" name=\"Passwd\">";
        switch (ex.getRequestMethod() + " " + path) {
            case "GET /signin/identifier" -> answer(ex, 200, FORM.formatted("Sign in", "Use your account", next, email));
            case "POST /signin/identifier" -> {
                if (account.email().equals(form.get("identifier"))) {
                    redirect(ex, "/signin/challenge/pwd?continue=" + encode(next));
                } else {
                    answer(ex, 200, FORM.formatted("Sign in", "Couldn't find your Google Account", next, email));
                }
            }
            case "GET /signin/challenge/pwd" -> answer(ex, 200, FORM.formatted("Welcome", "Enter your password", next,
                    password));
            case "POST /signin/challenge/pwd" -> password(ex, form, next, password);
            case "GET /signin/challenge/ipp" -> answer(ex, 200, FORM.formatted("Verify it\u2019s you",
                    "To help keep your account safe, we want to make sure it's really you", next, ""));
            default -> answer(ex, 404, "no such page");
        }
    }

    private void password(HttpExchange ex, Map<String, String> form, String next, String field) throws IOException {
        if (!account.password().equals(form.get("Passwd"))) {
            answer(ex, 200, FORM.formatted("Welcome", "Wrong password. Try again or click Forgot password to reset it.",
                    next, field));
        } else if (challenge) {
            redirect(ex, "/signin/challenge/ipp?continue=" + encode(next));
        } else {
            // persistent, as the provider's session cookie is: it outlives the browser in the profile
            ex.getResponseHeaders().add("Set-Cookie", "SID=" + session + "; Max-Age=2592000; Path=/; HttpOnly");
            redirect(ex, next);
        }
    }

    private static Map<String, String> form(HttpExchange ex) throws IOException {
        return pairs(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static Map<String, String> query(HttpExchange ex) {
        String q = ex.getRequestURI().getRawQuery();
        return pairs(q == null ? "" : q);
    }

    private static Map<String, String> pairs(String raw) {
        Map<String, String> out = new HashMap<>();
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static void redirect(HttpExchange ex, String to) throws IOException {
        ex.getResponseHeaders().set("Location", to);
        ex.sendResponseHeaders(302, -1);
        ex.close();
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
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
