package dev.stockade.bench.pii;

import dev.stockade.pii.MaskingException;
import dev.stockade.pii.MaskingSettings;
import dev.stockade.pii.PiiMasker;
import dev.stockade.pii.PiiType;
import dev.stockade.pii.WireFormat;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * MB per CPU-second of one masking thread, from the thread's own CPU time: on a machine shared with other
 * builds (the JMH figures' wall time grows with the load), CPU time still says what one core does. Runs the
 * workload of {@link PiiMaskingBenchmark} (the chat body, dense and sparse corpus) per type set and size.
 * {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.pii.PiiCpuThroughput [seconds]}
 */
public final class PiiCpuThroughput {

    private PiiCpuThroughput() {
    }

    public static void main(String[] args) throws MaskingException {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 10;
        Map<String, Set<PiiType>> sets = Map.of(
                "REGEX", EnumSet.of(PiiType.EMAIL, PiiType.PHONE, PiiType.CREDIT_CARD, PiiType.ADDRESS),
                "NAMES", EnumSet.of(PiiType.PERSON, PiiType.LOCATION),
                "ALL", EnumSet.allOf(PiiType.class));
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (String name : new String[] {"REGEX", "NAMES", "ALL"}) {
            for (int bytes : new int[] {1024, 65536}) {
                measure(name, PiiMasker.create(MaskingSettings.of(sets.get(name))), bytes, true, cpu, seconds);
                measure(name, PiiMasker.create(MaskingSettings.of(sets.get(name))), bytes, false, cpu, seconds);
            }
        }
    }

    private static void measure(String name, PiiMasker masker, int bytes, boolean dense, ThreadMXBean cpu,
            double seconds) throws MaskingException {
        String text = PiiCorpus.ofBytes(bytes, dense).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        byte[] body = ("{\"model\":\"gpt-x\",\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}")
                .getBytes(StandardCharsets.UTF_8);
        run(masker, body, cpu, seconds / 2);
        long ops = 0;
        long t0 = cpu.getCurrentThreadCpuTime();
        while (cpu.getCurrentThreadCpuTime() - t0 < seconds * 1e9) {
            masker.mask(body, WireFormat.OPENAI_CHAT);
            ops++;
        }
        double cpuSeconds = (cpu.getCurrentThreadCpuTime() - t0) / 1e9;
        double microsPerOp = cpuSeconds * 1e6 / ops;
        System.out.printf(Locale.ROOT, "%-5s %6d B %-6s: %9.1f us CPU per request, %6.2f MB per CPU-second, %7.1f us per KB%n",
                name, bytes, dense ? "dense" : "sparse", microsPerOp, bytes * ops / cpuSeconds / 1e6,
                microsPerOp * 1024 / bytes);
    }

    private static void run(PiiMasker masker, byte[] body, ThreadMXBean cpu, double seconds) throws MaskingException {
        long t0 = cpu.getCurrentThreadCpuTime();
        while (cpu.getCurrentThreadCpuTime() - t0 < seconds * 1e9) {
            masker.mask(body, WireFormat.OPENAI_CHAT);
        }
    }
}
