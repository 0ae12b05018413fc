package dev.stockade.bench.pii;

import dev.stockade.pii.MaskedBody;
import dev.stockade.pii.MaskingException;
import dev.stockade.pii.MaskingSettings;
import dev.stockade.pii.PiiMasker;
import dev.stockade.pii.PiiType;
import dev.stockade.pii.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * PII masking on one thread (so the figure is per core): {@code chatBody} masks {@code bytes} UTF-8 bytes of
 * corpus text inside an OpenAI chat request, JSON reading and writing included: the latency the proxy adds. Type sets: {@code REGEX} (EMAIL, PHONE, CREDIT_CARD,
 * ADDRESS), {@code NAMES} (PERSON, LOCATION) and {@code ALL}. MB/s = bytes / average time.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Threads(1)
public class PiiMaskingBenchmark {

    @Param({"REGEX", "NAMES", "ALL"})
    public String types;

    @Param({"1024", "65536"})
    public int bytes;

    /** {@code dense}: a value to mask about every 100 bytes; {@code sparse}: one snippet in ten holds any. */
    @Param({"dense", "sparse"})
    public String corpus;

    private PiiMasker masker;
    private String text;
    private byte[] body;

    @Setup(Level.Trial)
    public void setUp() throws MaskingException {
        Set<PiiType> selected = switch (types) {
            case "REGEX" -> EnumSet.of(PiiType.EMAIL, PiiType.PHONE, PiiType.CREDIT_CARD, PiiType.ADDRESS);
            case "NAMES" -> EnumSet.of(PiiType.PERSON, PiiType.LOCATION);
            default -> EnumSet.allOf(PiiType.class);
        };
        masker = PiiMasker.create(MaskingSettings.of(selected).withUnmaskResponses(true));
        text = PiiCorpus.ofBytes(bytes, corpus.equals("dense"));
        String escaped = text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        body = ("{\"model\":\"gpt-x\",\"messages\":[{\"role\":\"user\",\"content\":\"" + escaped + "\"}]}")
                .getBytes(StandardCharsets.UTF_8);
        if (masker.mask(body, WireFormat.OPENAI_CHAT).masked().isEmpty()) {
            throw new IllegalStateException("the corpus should hold values of every selected type set");
        }
    }

    @Benchmark
    public MaskedBody chatBody() throws MaskingException {
        return masker.mask(body, WireFormat.OPENAI_CHAT);
    }
}
