package dev.stockade.cli;

/** Output formats of {@code policy lint}: people, scripts, code scanning, or GitHub Actions annotations. */
enum LintFormat {
    text, json, sarif, github
}
