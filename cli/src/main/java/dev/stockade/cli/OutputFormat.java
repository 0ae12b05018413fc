package dev.stockade.cli;

/** Output formats of the policy commands; not every command offers every one. */
enum OutputFormat {
    text, json, sarif
}
