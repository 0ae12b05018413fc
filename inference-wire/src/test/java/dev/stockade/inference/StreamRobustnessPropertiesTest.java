package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Whatever upstream sends, metering never throws: bad bytes become a fault or a truncation, never an exception. */
class StreamRobustnessPropertiesTest {

    private static final long SEED = 0x5EED_0A2L;
    private static final List<WireFormat> STREAMED = List.of(WireFormat.ANTHROPIC_MESSAGES, WireFormat.OPENAI_CHAT,
            WireFormat.OPENAI_RESPONSES, WireFormat.BEDROCK_INVOKE, WireFormat.BEDROCK_CONVERSE);
    private static final List<byte[]> VALID = List.of(Fixtures.resource("streams/anthropic-messages.sse"),
            Fixtures.resource("streams/openai-chat.sse"), Fixtures.resource("streams/openai-responses.sse"),
            Fixtures.invokeStream(Fixtures.BEDROCK_INVOKE_EVENTS), Fixtures.converseStream(true));

    private static Gen<WireFormat> formats() {
        return integers().between(0, STREAMED.size() - 1).map(STREAMED::get);
    }

    @Test
    void randomBytesNeverThrow() {
        Gen<List<Integer>> bytes = lists().of(integers().between(0, 255)).ofSizeBetween(0, 2000);
        qt().withFixedSeed(SEED).withExamples(1000).forAll(formats(), bytes).checkAssert((format, values) -> {
            byte[] stream = new byte[values.size()];
            for (int i = 0; i < stream.length; i++) {
                stream[i] = (byte) (int) values.get(i);
            }
            assertThatCode(() -> StreamMeterTest.meter(format, stream).end()).doesNotThrowAnyException();
        });
    }

    @Test
    void corruptedValidStreamsNeverThrow() {
        Gen<List<Integer>> flips = lists().of(integers().between(0, Integer.MAX_VALUE)).ofSizeBetween(1, 12);
        qt().withFixedSeed(SEED).withExamples(1500).forAll(integers().between(0, VALID.size() - 1), formats(), flips)
                .checkAssert((which, format, positions) -> {
                    byte[] stream = VALID.get(which).clone();
                    for (int position : positions) {
                        stream[position % stream.length] ^= (byte) (position >>> 8 | 1);
                    }
                    assertThatCode(() -> StreamMeterTest.meter(format, stream).end()).doesNotThrowAnyException();
                });
    }
}
