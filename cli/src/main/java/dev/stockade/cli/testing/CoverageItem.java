package dev.stockade.cli.testing;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * One thing a policy test can exercise: a domain entry, a plain rule, or a rule with a GraphQL fence.
 *
 * @param kind    what it is
 * @param file    the file it is written in (the policy file, or the test file of an inline policy)
 * @param line    its line in that file, 0 when unknown
 * @param policy  the name of the policy it belongs to
 * @param pointer its JSON pointer inside that policy, e.g. {@code /allowedDomains/0/rules/1}
 * @param label   one line naming it for people: the entry's pattern, the rule's method and path
 */
public record CoverageItem(Kind kind, String file, int line, String policy, String pointer, String label) {

    /** The three kinds coverage counts, each with its wire name. */
    public enum Kind {
        ENTRY("entry"), RULE("rule"), GRAPHQL_FENCE("graphql-fence");

        private final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        /** The name in JSON and text reports. */
        @JsonValue
        public String wire() {
            return wire;
        }
    }
}
