package dev.stockade.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of {@code stockade}: its exit status and what it wrote to standard output and error. */
record CliRun(int status, String out, String err) {
    /** Runs {@code stockade} with {@code args} and captures both streams. */
    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Stockade.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CliRun(status, out.toString(), err.toString());
    }

    /** Both streams together. */
    String all() {
        return out + err;
    }
}
