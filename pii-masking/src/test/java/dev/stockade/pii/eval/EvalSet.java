package dev.stockade.pii.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The shipped evaluation set: {@code eval/handwritten.jsonl}, {@code eval/handwritten-blind.jsonl} and
 * {@code eval/generated.jsonl}. */
public final class EvalSet {

    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> FILES = List.of("handwritten.jsonl", "handwritten-blind.jsonl", "generated.jsonl");

    private EvalSet() {
    }

    /** Every example of the shipped set. */
    public static List<EvalExample> load() {
        List<EvalExample> out = new ArrayList<>();
        for (String f : FILES) {
            InputStream in = EvalSet.class.getResourceAsStream("/eval/" + f);
            if (in == null) {
                throw new IllegalStateException("evaluation file eval/" + f + " is missing; run EvalSetBuilder");
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (!line.isBlank()) {
                        out.add(JSON.readValue(line, EvalExample.class));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }
}
