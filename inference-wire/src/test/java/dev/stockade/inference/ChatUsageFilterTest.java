package dev.stockade.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The usage-only chunk is withheld, everything else passes byte for byte, however the stream is sliced. */
class ChatUsageFilterTest {

    private static final String USAGE_CHUNK_PREFIX = "data: {\"id\":\"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG\","
            + "\"object\":\"chat.completion.chunk\",\"created\":1741570283,\"model\":\"gpt-4o-2024-08-06\","
            + "\"system_fingerprint\":\"fp_f9f4fb6dbf\",\"choices\":[],";

    /** The fixture with its usage event removed, cut by hand from the text. */
    private static String withoutUsage(String stream, String blankLine) {
        int start = stream.indexOf(USAGE_CHUNK_PREFIX);
        int end = stream.indexOf(blankLine, start) + blankLine.length();
        return stream.substring(0, start) + stream.substring(end);
    }

    private static byte[] filter(byte[] stream, List<Integer> cuts, WireLimits limits) {
        ChatUsageFilter filter = new ChatUsageFilter(limits);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int from = 0;
        for (int cut : new TreeSet<>(cuts.stream().map(c -> c % (stream.length + 1)).toList())) {
            out.writeBytes(filter.pass(stream, from, cut - from));
            from = cut;
        }
        out.writeBytes(filter.pass(stream, from, stream.length - from));
        out.writeBytes(filter.finish());
        return out.toByteArray();
    }

    @Test
    void theUsageChunkIsWithheldAndTheRestPassesUnchanged() {
        byte[] lf = Fixtures.resource("streams/openai-chat.sse");
        String expected = withoutUsage(new String(lf, StandardCharsets.UTF_8), "\n\n");
        assertThat(new String(filter(lf, List.of(), WireLimits.DEFAULT), StandardCharsets.UTF_8)).isEqualTo(expected);
        byte[] crlf = Fixtures.crlf(lf);
        String expectedCrlf = withoutUsage(new String(crlf, StandardCharsets.UTF_8), "\r\n\r\n");
        assertThat(new String(filter(crlf, List.of(), WireLimits.DEFAULT), StandardCharsets.UTF_8)).isEqualTo(expectedCrlf);
    }

    @Test
    void anySliceGivesTheSameOutput() {
        byte[] lf = Fixtures.resource("streams/openai-chat.sse");
        byte[] crlf = Fixtures.crlf(lf);
        byte[] expectedLf = filter(lf, List.of(), WireLimits.DEFAULT);
        byte[] expectedCrlf = filter(crlf, List.of(), WireLimits.DEFAULT);
        qt().withFixedSeed(0x5EED_0A3L).withExamples(1000)
                .forAll(lists().of(integers().between(0, 4096)).ofSizeBetween(0, 30)).checkAssert(cuts -> {
                    assertThat(filter(lf, cuts, WireLimits.DEFAULT)).isEqualTo(expectedLf);
                    assertThat(filter(crlf, cuts, WireLimits.DEFAULT)).isEqualTo(expectedCrlf);
                });
    }

    @Test
    void usageBesideChoicesIsNotWithheld() {
        byte[] stream = ("data: {\"choices\":[{\"index\":0,\"delta\":{}}],\"usage\":{\"prompt_tokens\":1}}\n\n"
                + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
        assertThat(filter(stream, List.of(), WireLimits.DEFAULT)).isEqualTo(stream);
    }

    @Test
    void anOversizedEventEndsFilteringAndEverythingPasses() {
        byte[] stream = ("data: {\"choices\":[{\"delta\":{\"content\":\"" + "x".repeat(200) + "\"}}]}\n\n"
                + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1}}\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
        assertThat(filter(stream, List.of(7, 100, 190), new WireLimits(1024, 64))).isEqualTo(stream);
        assertThat(filter(stream, List.of(), new WireLimits(1024, 64))).isEqualTo(stream);
        byte[] usageFirst = ("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1}}\n\n"
                + "data: " + "y".repeat(100) + "\n\n").getBytes(StandardCharsets.UTF_8);
        String kept = "data: " + "y".repeat(100) + "\n\n";
        assertThat(new String(filter(usageFirst, List.of(), new WireLimits(1024, 64)), StandardCharsets.UTF_8)).isEqualTo(kept);
        assertThat(new String(filter(usageFirst, List.of(60, 80), new WireLimits(1024, 64)), StandardCharsets.UTF_8)).isEqualTo(kept);
    }

    @Test
    void halfAnEventAtTheEndIsPassedOnAsItCame() {
        byte[] stream = "data: {\"choices\":[],\"usage\":{\"prompt_tok".getBytes(StandardCharsets.UTF_8);
        assertThat(filter(stream, List.of(10), WireLimits.DEFAULT)).isEqualTo(stream);
    }
}
