package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The progress line of {@code sandbox copy}: only on a terminal, only past 1 MiB, at most four times a second. */
class CopyProgressTest {
    private final StringWriter err = new StringWriter();
    private long now;

    private CopyProgress progress(boolean terminal) {
        return new CopyProgress(new PrintWriter(err, true), terminal, () -> now);
    }

    @Test
    void aTerminalSeesLargeCopiesRedrawnOnOneLineThrottledByTheClock() throws Exception {
        CopyProgress p = progress(true);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        OutputStream out = p.counting(sink);
        out.write(new byte[512 * 1024]);
        assertThat(err.toString()).isEmpty();
        out.write(new byte[512 * 1024]);
        assertThat(err.toString()).isEqualTo("\rcopied 1.0 MiB");
        out.write(new byte[1024 * 1024]); // within the same quarter second: not redrawn
        now += 250_000_000L;
        out.write(new byte[1024 * 1024]);
        p.finish();
        assertThat(err.toString()).isEqualTo("\rcopied 1.0 MiB\rcopied 3.0 MiB\rcopied 3.0 MiB"
                + System.lineSeparator());
        p.finish();
        out.write(new byte[1024 * 1024]); // after the end, the line stays ended
        assertThat(err.toString()).endsWith("copied 3.0 MiB" + System.lineSeparator());
        assertThat(sink.size()).isEqualTo(4 * 1024 * 1024);
        assertThat(p.bytes()).isEqualTo(4L * 1024 * 1024);
    }

    @Test
    void withoutATerminalNothingIsDrawn() throws Exception {
        CopyProgress p = progress(false);
        p.counting(OutputStream.nullOutputStream()).write(new byte[4 * 1024 * 1024]);
        p.finish();
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void sizesUseBinaryUnits() {
        assertThat(CopyProgress.size(0)).isEqualTo("0 B");
        assertThat(CopyProgress.size(1023)).isEqualTo("1023 B");
        assertThat(CopyProgress.size(1536)).isEqualTo("1.5 KiB");
        assertThat(CopyProgress.size(5L << 30)).isEqualTo("5.0 GiB");
    }
}
