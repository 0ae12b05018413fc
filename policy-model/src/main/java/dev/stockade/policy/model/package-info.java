/**
 * The policy document as users write it: immutable records for every field of the spec, closed sets as
 * enums. Reading, validation, problems and the update semantics live beside these types.
 */
package dev.stockade.policy.model;
