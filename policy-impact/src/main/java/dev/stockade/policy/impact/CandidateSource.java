package dev.stockade.policy.impact;

import java.util.Optional;

/**
 * Which candidate decides a recorded entry: one candidate for every sandbox (the CLI's files) or one per sandbox (the
 * platform resolving each sandbox with the candidate documents in place of the stored ones).
 */
@FunctionalInterface
public interface CandidateSource {
    /** The candidate for the entry's sandbox or caller; empty when none covers it. */
    Optional<Candidate> forSandbox(String sandbox);

    /** The same candidate for every entry. */
    static CandidateSource everywhere(Candidate candidate) {
        Optional<Candidate> one = Optional.of(candidate);
        return sandbox -> one;
    }
}
