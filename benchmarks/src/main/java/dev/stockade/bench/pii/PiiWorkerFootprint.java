package dev.stockade.bench.pii;

import dev.stockade.pii.InProcessWorker;
import dev.stockade.pii.MaskingException;
import dev.stockade.pii.MaskingSettings;
import dev.stockade.pii.PiiMasker;
import dev.stockade.pii.PiiType;
import dev.stockade.pii.ProcessWorker;
import dev.stockade.pii.WireFormat;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;

/**
 * Memory per masking worker: heap retained by an in-process worker with every type (gazetteers, part-of-speech
 * model, one tagger per thread), measured after full collections; and the resident size of a separate-process
 * worker's child JVM. {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.pii.PiiWorkerFootprint}
 */
public final class PiiWorkerFootprint {

    private PiiWorkerFootprint() {
    }

    public static void main(String[] args) throws MaskingException, IOException, InterruptedException {
        byte[] body = ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + PiiCorpus.ofBytes(4096).replace("\"", "'").replace("\n", " ") + "\"}]}").getBytes(StandardCharsets.UTF_8);
        long before = settledHeap();
        MaskingSettings settings = MaskingSettings.of(EnumSet.allOf(PiiType.class));
        try (InProcessWorker worker = InProcessWorker.of(PiiMasker.create(settings))) {
            for (int i = 0; i < 16; i++) {
                worker.mask(body, WireFormat.OPENAI_CHAT, Duration.ofSeconds(60));
            }
            long after = settledHeap();
            System.out.printf(Locale.ROOT, "in-process worker, %d threads, all types: %.1f MB of heap retained%n",
                    Runtime.getRuntime().availableProcessors(), (after - before) / 1e6);
        }
        try (ProcessWorker child = ProcessWorker.start(settings, Duration.ofSeconds(120))) {
            for (int i = 0; i < 16; i++) {
                child.mask(body, WireFormat.OPENAI_CHAT, Duration.ofSeconds(60));
            }
            System.out.printf(Locale.ROOT, "separate-process worker (default JVM flags), all types: %.1f MB resident%n",
                    residentKb(child.pid()) / 1e3);
        }
    }

    private static long settledHeap() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100); // a measurement pause: let the collector finish before reading the heap
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static long residentKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
