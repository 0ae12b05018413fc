package dev.stockade.policy.impact;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The fixture policies and trail of the tests, read through the same reader and resolver the CLI uses. */
final class Fixtures {
    private Fixtures() {
    }

    static Candidate candidate(String policyFile) {
        ReadResult read = PolicyReader.read(policyFile, text(policyFile));
        if (!read.valid()) {
            throw new IllegalStateException(policyFile + ": " + read.problems());
        }
        return Candidate.of(Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(read.policy())));
    }

    static List<RecordedDecision> trail() {
        List<RecordedDecision> out = new ArrayList<>();
        try (InputStream in = Fixtures.class.getResourceAsStream("trail.json")) {
            TrailStream.read(in, out::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (TrailStream.TrailFormatException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    static String text(String resource) {
        try (InputStream in = Fixtures.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
