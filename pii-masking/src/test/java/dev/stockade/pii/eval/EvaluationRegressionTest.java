package dev.stockade.pii.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.pii.PiiType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fails when a type's precision, recall or F1 on the shipped evaluation set drops below the figure published
 * in docs/pii.md (the table between the {@code eval:begin} and {@code eval:end} markers).
 */
class EvaluationRegressionTest {

    private static final Path DOC = Path.of("..", "docs", "pii.md");

    @Test
    void noTypeFallsBelowItsDocumentedFigures() throws IOException {
        Map<PiiType, double[]> documented = documented();
        assertThat(documented.keySet()).as("docs/pii.md lists every type").containsExactlyInAnyOrder(PiiType.values());
        Scores engine = Scores.of(EvalSet.load(), EvaluationReport.engine());
        for (PiiType t : PiiType.values()) {
            Scores.Count c = engine.count(t);
            double[] floor = documented.get(t);
            assertThat(c.precision()).as("%s precision", t).isGreaterThanOrEqualTo(floor[0] - 0.0005);
            assertThat(c.recall()).as("%s recall", t).isGreaterThanOrEqualTo(floor[1] - 0.0005);
            assertThat(c.f1()).as("%s F1", t).isGreaterThanOrEqualTo(floor[2] - 0.0005);
        }
    }

    @Test
    void theEvaluationSetIsLabelledConsistently() {
        List<EvalExample> all = EvalSet.load();
        assertThat(all).hasSizeGreaterThan(400);
        for (EvalExample e : all) {
            for (GoldSpan s : e.spans()) {
                assertThat(s.start()).isLessThan(s.end());
                assertThat(s.end()).as(e.id()).isLessThanOrEqualTo(e.text().length());
                String value = e.text().substring(s.start(), s.end());
                assertThat(value).as(e.id()).isEqualTo(value.strip()).isNotEmpty();
            }
        }
        for (PiiType t : PiiType.values()) {
            assertThat(all.stream().flatMap(e -> e.spans().stream()).filter(s -> s.type() == t).count())
                    .as("labelled %s values", t).isGreaterThanOrEqualTo(40);
        }
    }

    private static Map<PiiType, double[]> documented() throws IOException {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf("<!-- eval:begin -->");
        int end = doc.indexOf("<!-- eval:end -->");
        assertThat(begin).as("eval:begin marker in %s", DOC).isGreaterThanOrEqualTo(0);
        Map<PiiType, double[]> out = new EnumMap<>(PiiType.class);
        for (String line : doc.substring(begin, end).split("\n")) {
            String[] cells = line.split("\\|");
            if (cells.length < 5) {
                continue;
            }
            String name = cells[1].trim();
            for (PiiType t : PiiType.values()) {
                if (t.name().equals(name)) {
                    out.put(t, new double[] {Double.parseDouble(cells[2].trim()), Double.parseDouble(cells[3].trim()),
                        Double.parseDouble(cells[4].trim())});
                }
            }
        }
        return out;
    }
}
