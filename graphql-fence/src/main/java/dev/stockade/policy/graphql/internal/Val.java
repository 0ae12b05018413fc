package dev.stockade.policy.graphql.internal;

import java.util.List;
import java.util.Map;

/**
 * A resolved GraphQL or JSON value, as an argument condition sees it. Scalars keep their text exactly as
 * written (numbers included), because conditions compare text.
 */
public sealed interface Val {

    /** The text an argument glob is compared with, or {@code null} when this value is not a scalar. */
    default String scalarText() {
        return null;
    }

    /** A string (JSON or GraphQL), bare. */
    record Str(String text) implements Val {
        @Override
        public String scalarText() {
            return text;
        }
    }

    /** A number as written in the query or in the variables JSON. */
    record Num(String raw) implements Val {
        @Override
        public String scalarText() {
            return raw;
        }
    }

    /** A GraphQL enum value, by name. */
    record Enum(String name) implements Val {
        @Override
        public String scalarText() {
            return name;
        }
    }

    /** A boolean: {@code true} or {@code false}. */
    record Bool(boolean value) implements Val {
        @Override
        public String scalarText() {
            return value ? "true" : "false";
        }
    }

    /** An explicit null. */
    record Null() implements Val {
    }

    /** A list, in order. */
    record ListV(List<Val> items) implements Val {
    }

    /** An object; keys are unique (a duplicated key is stored as {@link Nothing}). */
    record ObjV(Map<String, Val> fields) implements Val {
    }

    /** Nothing: an unsupplied variable, or a key written twice (ambiguous, so never matches). */
    record Nothing() implements Val {
    }

    Null NULL = new Null();
    Nothing NOTHING = new Nothing();
    ObjV EMPTY_OBJECT = new ObjV(Map.of());
}
