package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Chunking never changes the verdict: any split of a stream (inside a UTF-8 sequence, an SSE line, a CRLF, a
 * frame header) meters exactly as the whole, and any cut before the terminal event's last byte is truncated.
 */
class StreamSplitPropertiesTest {

    private static final long SEED = 0x5EED_0A1L;

    private record Case(String name, WireFormat format, byte[] stream) {
    }

    private static final List<Case> CASES = List.of(
            new Case("anthropic", WireFormat.ANTHROPIC_MESSAGES, Fixtures.resource("streams/anthropic-messages.sse")),
            new Case("anthropic crlf", WireFormat.ANTHROPIC_MESSAGES,
                    Fixtures.crlf(Fixtures.resource("streams/anthropic-messages.sse"))),
            new Case("chat", WireFormat.OPENAI_CHAT, Fixtures.resource("streams/openai-chat.sse")),
            new Case("chat crlf", WireFormat.OPENAI_CHAT, Fixtures.crlf(Fixtures.resource("streams/openai-chat.sse"))),
            new Case("responses", WireFormat.OPENAI_RESPONSES, Fixtures.resource("streams/openai-responses.sse")),
            new Case("responses cr", WireFormat.OPENAI_RESPONSES, new String(
                    Fixtures.resource("streams/openai-responses.sse"), StandardCharsets.UTF_8).replace('\n', '\r')
                    .getBytes(StandardCharsets.UTF_8)),
            new Case("bedrock invoke", WireFormat.BEDROCK_INVOKE, Fixtures.invokeStream(Fixtures.BEDROCK_INVOKE_EVENTS)),
            new Case("bedrock converse", WireFormat.BEDROCK_CONVERSE, Fixtures.converseStream(true)));

    private static Gen<Case> cases() {
        return integers().between(0, CASES.size() - 1).map(CASES::get);
    }

    @Test
    void everyFixtureIsACompleteStreamWithUsage() {
        for (Case c : CASES) {
            StreamReading whole = StreamMeterTest.meter(c.format(), c.stream());
            assertThat(whole.end()).as(c.name()).isEqualTo(StreamEnd.COMPLETE);
            assertThat(whole.fault()).as(c.name()).isEmpty();
            assertThat(whole.usage()).as(c.name()).isPresent();
        }
    }

    @Test
    void anySplitMetersLikeTheWholeStream() {
        Gen<List<Integer>> cuts = lists().of(integers().between(0, 4096)).ofSizeBetween(0, 40);
        qt().withFixedSeed(SEED).withExamples(1500).forAll(cases(), cuts).checkAssert((c, points) -> {
            StreamReading whole = StreamMeterTest.meter(c.format(), c.stream());
            StreamMeter meter = StreamMeter.start(c.format(), WireLimits.DEFAULT);
            int from = 0;
            for (int point : new TreeSet<>(points.stream().map(p -> p % (c.stream().length + 1)).toList())) {
                meter.feed(c.stream(), from, point - from);
                from = point;
            }
            meter.feed(c.stream(), from, c.stream().length - from);
            assertThat(meter.finish()).as(c.name()).isEqualTo(whole);
        });
    }

    @Test
    void byteByByteMetersLikeTheWholeStream() {
        for (Case c : CASES) {
            StreamMeter meter = StreamMeter.start(c.format(), WireLimits.DEFAULT);
            for (int i = 0; i < c.stream().length; i++) {
                meter.feed(c.stream(), i, 1);
            }
            assertThat(meter.finish()).as(c.name()).isEqualTo(StreamMeterTest.meter(c.format(), c.stream()));
        }
    }

    @Test
    void anyCutBeforeTheTerminalEventEndsIsTruncated() {
        qt().withFixedSeed(SEED).withExamples(1500).forAll(cases(), integers().between(0, 1 << 20)).checkAssert((c, n) -> {
            int complete = shortestCompletePrefix(c);
            int cut = n % complete;
            StreamReading reading = StreamMeterTest.meter(c.format(), java.util.Arrays.copyOf(c.stream(), cut));
            assertThat(reading.end()).as("%s cut at %d of %d", c.name(), cut, c.stream().length)
                    .isEqualTo(StreamEnd.TRUNCATED);
        });
    }

    /**
     * Where the terminal event completes, known from the fixtures' layout rather than from the meter: each
     * fixture ends with its terminal event, which an SSE reader dispatches at the blank line's terminator (the CR
     * of a final CRLF pair) and a frame reader at the frame's last byte.
     */
    private static int shortestCompletePrefix(Case c) {
        return c.name().endsWith("crlf") ? c.stream().length - 1 : c.stream().length;
    }

    @Test
    void theTerminalEventCompletesExactlyAtItsLastByte() {
        for (Case c : CASES) {
            int complete = shortestCompletePrefix(c);
            assertThat(StreamMeterTest.meter(c.format(), java.util.Arrays.copyOf(c.stream(), complete)).end())
                    .as(c.name()).isEqualTo(StreamEnd.COMPLETE);
        }
    }
}
