package dev.stockade.runtime.bench;

import com.sun.net.httpserver.HttpServer;
import dev.stockade.runtime.ProviderDouble;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Start to ready only (spawn until /health answers, fresh data home each time), with telemetry export off and
 * on, for one or more builds of the runtime. Starts are interleaved (each round starts every build in every
 * mode once) so that a machine whose load drifts weighs on all of them alike. With export on, a collector
 * stand-in on loopback answers 200 to every export. Besides the wall time it reports the CPU time the runtime
 * process had used when it answered, which contention on a shared machine inflates far less.
 *
 * <p>Usage: {@code StartBenchmark <rounds> <off|otlp|both> <runtime jar> [<runtime jar> ...]}
 */
public final class StartBenchmark {
    private StartBenchmark() {
    }

    private record Sample(double wallMs, double cpuMs) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        List<String> modes = args[1].equals("both") ? List.of("off", "otlp") : List.of(args[1]);
        List<Path> jars = List.of(args).subList(2, args.length).stream().map(Path::of).toList();
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/logs", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        collector.start();
        Map<String, String> otlp = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://127.0.0.1:" + collector.getAddress().getPort(), "OTEL_EXPORTER_OTLP_API_KEY", "bench-key");
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        try (ProviderDouble provider = new ProviderDouble()) {
            for (int round = 0; round < rounds; round++) {
                for (Path jar : jars) {
                    for (String mode : modes) {
                        samples.computeIfAbsent(jar + ", telemetry " + mode, k -> new ArrayList<>())
                                .add(start(jar, provider, mode.equals("otlp") ? otlp : Map.of()));
                    }
                }
            }
        } finally {
            collector.stop(0);
        }
        samples.forEach((name, list) -> System.out.println(summary(name, list)));
    }

    private static Sample start(Path jar, ProviderDouble provider, Map<String, String> env) throws Exception {
        Path home = Files.createTempDirectory("rt-start");
        RuntimeBenchmark.Running r = RuntimeBenchmark.spawn(jar, home, provider.base(), env);
        Duration cpu = r.process().info().totalCpuDuration().orElse(Duration.ZERO);
        r.process().destroy();
        r.process().waitFor();
        RuntimeBenchmark.removeTree(home);
        return new Sample(r.readyMs(), cpu.toNanos() / 1e6);
    }

    private static String summary(String name, List<Sample> list) {
        double[] wall = list.stream().mapToDouble(Sample::wallMs).sorted().toArray();
        double[] cpu = list.stream().mapToDouble(Sample::cpuMs).sorted().toArray();
        return String.format("%s: %d starts, wall to ready median %.0f ms (min %.0f, max %.0f, mean %.0f); "
                + "runtime CPU at ready median %.0f ms (min %.0f, max %.0f)", name, wall.length, wall[wall.length / 2],
                wall[0], wall[wall.length - 1], mean(wall), cpu[cpu.length / 2], cpu[0], cpu[cpu.length - 1]);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double d : v) {
            s += d;
        }
        return s / v.length;
    }
}
