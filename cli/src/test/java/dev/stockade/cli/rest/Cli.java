package dev.stockade.cli.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.cli.Stockade;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Runs {@code stockade} in-process with its own environment (a config file per test) and captures its output. */
final class Cli {
    /** One run: exit status, standard output, standard error. */
    record Run(int status, String out, String err) {
        JsonNode json() {
            try {
                return new ObjectMapper().readTree(out);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + out + "\nstderr: " + err, e);
            }
        }

        @Override
        public String toString() {
            return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private final Map<String, String> env = new HashMap<>();

    /** A CLI whose stored login lives in {@code dir} and which sees no STOCKADE_* variables of the build. */
    Cli(Path dir) {
        env.put("HOME", dir.toString());
        env.put("STOCKADE_CONFIG", dir.resolve("config").resolve("credentials.json").toString());
    }

    Path credentials() {
        return Path.of(env.get("STOCKADE_CONFIG"));
    }

    Cli with(String name, String value) {
        env.put(name, value);
        return this;
    }

    Run run(String... args) {
        return run(java.io.InputStream.nullInputStream(), args);
    }

    /** A run whose standard output is also the byte stream {@code bytes} ({@code sandbox copy ID:PATH -}). */
    Run runBytes(java.io.OutputStream bytes, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Stockade.run(java.io.InputStream.nullInputStream(), bytes, new PrintWriter(out, true),
                new PrintWriter(err, true), env, args);
        return new Run(status, out.toString(), err.toString());
    }

    /** A run reading {@code in} as its standard input (never the process's, which classes running alongside share). */
    Run run(java.io.InputStream in, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Stockade.run(in, new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new Run(status, out.toString(), err.toString());
    }
}
