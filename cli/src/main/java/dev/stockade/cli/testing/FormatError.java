package dev.stockade.cli.testing;

/** A test file that could not be read or does not follow FORMAT.md; {@code line}/{@code column} 1-based, 0 unknown. */
public record FormatError(String file, int line, int column, String message) {

    /** {@code file:line:col: message}, the form editors jump to. */
    public String render() {
        return line > 0 ? file + ":" + line + ":" + column + ": " + message : file + ": " + message;
    }
}
