/**
 * The policy document as users write it: immutable records for every field of the spec, closed sets as
 * enums. Reading, validation, problems and the update semantics live beside these types.
 *
 * <p>Entry points for an embedding service: {@link dev.stockade.policy.model.SourceFiles#read} (the bounded
 * file reader), {@link dev.stockade.policy.model.PolicyReader#read} (text to a
 * {@link dev.stockade.policy.model.ReadResult}: the policy when valid, every problem either way, never an
 * exception for a user's mistake) and {@link dev.stockade.policy.model.ProblemRenderer} (problems for people
 * or machines). Every type here is immutable and safe to share between threads.
 *
 * <p><b>API:</b> this package is public and versioned (docs/library.md). {@code dev.stockade.policy.model.internal}
 * (the parser, schema and semantic checks behind {@code PolicyReader}) is not: it may change in any release.
 */
package dev.stockade.policy.model;
