package dev.stockade.bench.proxy;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * Small load client for the egress-proxy benchmark (benchmarks/proxy/run.sh). Plain JDK, run with the
 * source launcher ({@code java ProxyLoad.java ...}) so it needs no build.
 *
 * <p>Why not wrk alone: wrk cannot send CONNECT, and the intercepted path (CONNECT, then TLS with the
 * proxy's CA) is the one to measure. This client keeps a fixed number of persistent HTTP/1.1
 * connections, each on its own thread, and sends one request at a time per connection (closed loop,
 * like wrk), recording every request's latency.
 *
 * <pre>
 * rate --connect HOST:PORT [--proxy HOST:PORT] [--tls] [--sni NAME] [--trust PEM] --host HOST[:PORT]
 *      --path P [--conns N] [--seconds S] [--warmup S] [--rate R]
 *   --rate R: open loop at R requests/s in all (each connection sends on a fixed schedule, and a
 *   request's latency counts from when it was due, so a stall is not hidden: no coordinated omission);
 *   without it, closed loop (each connection sends as soon as its previous answer is in)
 *   prints: rps=... p50_us=... p90_us=... p99_us=... p999_us=... max_us=... requests=... errors=... reconnects=...
 * idle --proxy HOST:PORT --host HOST:PORT [--tls --sni NAME --trust PEM] [--count N] [--threads N] [--hold S]
 *      [--open-seconds S]
 *   opens N tunnels (stops trying after S seconds) (CONNECT, then optionally a TLS handshake), prints "holding N", holds them idle S seconds
 * </pre>
 */
public final class ProxyLoad {

    private final Map<String, String> opt = new HashMap<>();
    private SSLContext tls;

    private ProxyLoad(String[] args) {
        for (int i = 1; i < args.length; i++) {
            String k = args[i];
            if (k.equals("--tls")) {
                opt.put("tls", "true");
            } else {
                opt.put(k.substring(2), args[++i]);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        ProxyLoad p = new ProxyLoad(args);
        if (args.length > 0 && args[0].equals("rate")) {
            p.rate();
        } else if (args.length > 0 && args[0].equals("idle")) {
            p.idle();
        } else {
            System.err.println("usage: ProxyLoad rate|idle ... (see the class comment)");
            System.exit(2);
        }
    }

    private String get(String k, String def) {
        return opt.getOrDefault(k, def);
    }

    private static InetSocketAddress addr(String hostPort) {
        int c = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, c), Integer.parseInt(hostPort.substring(c + 1)));
    }

    private synchronized SSLContext tls() throws Exception {
        if (tls == null) {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            int n = 0;
            for (String pem : get("trust", "").split(",")) {
                if (pem.isBlank()) {
                    continue;
                }
                try (InputStream in = new FileInputStream(pem)) {
                    for (Certificate c : cf.generateCertificates(in)) {
                        ks.setCertificateEntry("ca" + n++, c);
                    }
                }
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(null, tmf.getTrustManagers(), null);
            tls = c; // published only once initialised: the connection threads share it
        }
        return tls;
    }

    /** One client connection: TCP (to the origin, the passthrough port or a proxy), CONNECT, TLS. */
    private final class Conn implements AutoCloseable {
        final Socket socket;
        final InputStream in;
        final OutputStream out;

        Conn() throws Exception {
            String proxy = opt.get("proxy");
            String host = get("host", "localhost");
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.connect(addr(proxy != null ? proxy : get("connect", null)), 10_000);
            s.setSoTimeout(30_000);
            if (proxy != null && opt.containsKey("tls")) {
                OutputStream o = s.getOutputStream();
                o.write(("CONNECT " + host + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                o.flush();
                InputStream i = s.getInputStream();
                String head = readHead(i);
                if (!head.startsWith("HTTP/1.1 200") && !head.startsWith("HTTP/1.0 200")) {
                    s.close();
                    throw new IOException("CONNECT refused: " + head.lines().findFirst().orElse(""));
                }
            }
            if (opt.containsKey("tls")) {
                String sni = get("sni", host.contains(":") ? host.substring(0, host.lastIndexOf(':')) : host);
                SSLSocket ssl = (SSLSocket) tls().getSocketFactory().createSocket(s, sni, s.getPort(), true);
                SSLParameters p = ssl.getSSLParameters();
                p.setServerNames(List.of(new SNIHostName(sni)));
                p.setEndpointIdentificationAlgorithm("HTTPS");
                ssl.setSSLParameters(p);
                ssl.startHandshake();
                s = ssl;
            }
            socket = s;
            in = new BufferedInputStream(s.getInputStream(), 16384);
            out = s.getOutputStream();
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing at the end of a run
            }
        }
    }

    /** Reads a header block (up to CRLFCRLF) as ASCII; not buffered past it. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(256);
        int state = 0;
        while (state < 4) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed in header");
            }
            b.write(c);
            state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1
                    : c == '\r' ? 1 : 0;
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int c = line.indexOf(':');
            if (c > 0 && line.substring(0, c).trim().equalsIgnoreCase(name)) {
                return line.substring(c + 1).trim();
            }
        }
        return null;
    }

    private static void skip(InputStream in, long n) throws IOException {
        byte[] buf = new byte[8192];
        while (n > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, n));
            if (r < 0) {
                throw new IOException("connection closed in body");
            }
            n -= r;
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("closed in chunk");
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    /** Reads one response; returns whether the connection stays usable. Throws on a non-2xx status. */
    private static boolean response(InputStream in) throws IOException {
        String head = readHead(in);
        if (!head.startsWith("HTTP/1.1 2") && !head.startsWith("HTTP/1.0 2")) {
            throw new IOException("status: " + head.lines().findFirst().orElse(""));
        }
        String len = header(head, "content-length");
        String te = header(head, "transfer-encoding");
        if (te != null && te.toLowerCase().contains("chunked")) {
            while (true) {
                String size = line(in);
                int semi = size.indexOf(';');
                long n = Long.parseLong((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
                if (n == 0) {
                    while (!line(in).isEmpty()) {
                        // trailers
                    }
                    break;
                }
                skip(in, n);
                line(in);
            }
        } else if (len != null) {
            skip(in, Long.parseLong(len));
        } else {
            while (in.read() >= 0) {
                // close-delimited
            }
            return false;
        }
        String connection = header(head, "connection");
        return connection == null || !connection.equalsIgnoreCase("close");
    }

    private void rate() throws Exception {
        int conns = Integer.parseInt(get("conns", "8"));
        double seconds = Double.parseDouble(get("seconds", "10"));
        double warmup = Double.parseDouble(get("warmup", "2"));
        String host = get("host", "localhost");
        boolean absolute = opt.containsKey("proxy") && !opt.containsKey("tls");
        String target = absolute ? "http://" + host + get("path", "/") : get("path", "/");
        byte[] request = ("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: stockade-proxyload\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        double rate = Double.parseDouble(get("rate", "0"));
        long interval = rate > 0 ? (long) (conns * 1e9 / rate) : 0; // per connection
        long t0 = System.nanoTime();
        long measureFrom = t0 + (long) (warmup * 1e9);
        long end = measureFrom + (long) (seconds * 1e9);
        AtomicLong errors = new AtomicLong();
        AtomicLong reconnects = new AtomicLong();
        ConcurrentLinkedQueue<long[]> results = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> firstErrors = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < conns; i++) {
            long phase = interval * i / conns; // spread the connections' schedules over one interval
            Thread t = new Thread(() -> {
                long[] lat = new long[1 << 16];
                int n = 0;
                Conn c = null;
                long due = t0 + phase;
                while (System.nanoTime() < end) {
                    try {
                        if (c == null) {
                            c = new Conn();
                        }
                        long s = System.nanoTime();
                        if (interval > 0) {
                            while (s < due) { // open loop: wait for this request's slot
                                java.util.concurrent.locks.LockSupport.parkNanos(due - s);
                                s = System.nanoTime();
                            }
                            s = due; // latency from when the request was due
                            due += interval;
                        }
                        c.out.write(request);
                        c.out.flush();
                        boolean keep = response(c.in);
                        long e = System.nanoTime();
                        if (s >= measureFrom && e <= end) {
                            if (n == lat.length) {
                                lat = Arrays.copyOf(lat, n * 2);
                            }
                            lat[n++] = e - s;
                        }
                        if (!keep) {
                            c.close();
                            c = null;
                            reconnects.incrementAndGet();
                        }
                    } catch (Exception ex) {
                        if (System.nanoTime() < end) {
                            errors.incrementAndGet();
                            if (firstErrors.size() < 3) {
                                firstErrors.add(ex.toString());
                            }
                        }
                        if (c != null) {
                            c.close();
                        }
                        c = null;
                        try {
                            Thread.sleep(10); // back off a failing target instead of spinning
                        } catch (InterruptedException ie) {
                            return;
                        }
                    }
                }
                if (c != null) {
                    c.close();
                }
                results.add(Arrays.copyOf(lat, n));
            }, "load-" + i);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        long[] all = results.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        for (String e : firstErrors) {
            System.err.println("proxyload: error: " + e);
        }
        System.out.printf("rps=%.0f p50_us=%d p90_us=%d p99_us=%d p999_us=%d max_us=%d requests=%d errors=%d reconnects=%d%n",
                all.length / seconds, pct(all, 0.50), pct(all, 0.90), pct(all, 0.99), pct(all, 0.999),
                all.length == 0 ? 0 : all[all.length - 1] / 1000, all.length, errors.get(), reconnects.get());
    }

    private static long pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1000;
    }

    private void idle() throws Exception {
        int count = Integer.parseInt(get("count", "10000"));
        int threads = Integer.parseInt(get("threads", "16"));
        double hold = Double.parseDouble(get("hold", "10"));
        // opening is bounded too: a proxy that opens tunnels slowly is reported, not waited on forever
        long openDeadline = System.nanoTime() + (long) (Double.parseDouble(get("open-seconds", "600")) * 1e9);
        AtomicInteger skipped = new AtomicInteger();
        ConcurrentLinkedQueue<Conn> open = new ConcurrentLinkedQueue<>();
        AtomicInteger failed = new AtomicInteger();
        ConcurrentLinkedQueue<String> firstErrors = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            pool.execute(() -> {
                if (System.nanoTime() > openDeadline) {
                    skipped.incrementAndGet();
                    return;
                }
                try {
                    open.add(new Conn());
                } catch (Exception e) {
                    failed.incrementAndGet();
                    if (firstErrors.size() < 3) {
                        firstErrors.add(e.toString());
                    }
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.HOURS);
        for (String e : firstErrors) {
            System.err.println("proxyload: error: " + e);
        }
        System.out.printf("holding open=%d failed=%d not_tried=%d open_seconds=%.1f%n", open.size(), failed.get(),
                skipped.get(), (System.nanoTime() - t0) / 1e9);
        System.out.flush();
        Thread.sleep((long) (hold * 1000)); // the measurement itself: the tunnels sit idle while RSS is read
        int alive = 0;
        for (Conn c : open) {
            // a tunnel the proxy closed while idle reads EOF at once; a live one times out
            try {
                c.socket.setSoTimeout(1);
                alive += c.in.read() == -1 ? 0 : 1;
            } catch (java.net.SocketTimeoutException e) {
                alive++;
            } catch (IOException e) {
                // closed
            }
            c.close();
        }
        System.out.printf("released alive=%d%n", alive);
    }
}
