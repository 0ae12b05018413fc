package dev.stockade.cli.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The JSON Schema of one suite of a policy test file, generated from the shape the runner checks. */
public final class SuiteSchema {
    private SuiteSchema() {
    }

    /** A fresh copy of the suite's schema; inline policies refer to {@code #/definitions/policy}. */
    public static ObjectNode schema() {
        return Shape.suite().schema();
    }
}
