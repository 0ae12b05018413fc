package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;

/**
 * Fuzz targets for reading and validating. Under plain {@code mvn test} they run in regression mode
 * over the seeds in {@code PolicyReaderFuzzTestInputs/}; {@code JAZZER_FUZZ=1} fuzzes for real.
 * Whatever the input: no exception, a result, and a policy only when no error was reported.
 */
class PolicyReaderFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void readAndValidate(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        ReadResult r = PolicyReader.read("fuzz.yaml", text);
        assertThat(r).isNotNull();
        assertThat(r.problems().size()).isLessThanOrEqualTo(PolicyReader.MAX_PROBLEMS + 1);
        if (r.valid()) {
            assertThat(r.policy()).isNotNull();
            // what is valid writes back to the same policy
            assertThat(PolicyReader.read("w.yaml", PolicyWriter.toYaml(r.policy())).policy()).isEqualTo(r.policy());
        } else {
            assertThat(r.policy()).isNull();
        }
        ProblemRenderer.human(r.problems(), "fuzz.yaml", text);
    }

    @FuzzTest(maxDuration = "60s")
    void compileAndMatchGlobs(FuzzedDataProvider data) {
        GlobKind kind = data.pickValue(GlobKind.values());
        String pattern = data.consumeString(200);
        String input = data.consumeRemainingAsString();
        GlobResult r = Glob.compile(kind, pattern);
        assertThat(r.ok()).isEqualTo(r.glob() != null);
        if (r.ok()) {
            r.glob().matches(input);
        }
    }
}
