package dev.stockade.pii;

/**
 * A text field cut because the request ran out of scan budget; reported per call so the cut is never silent.
 * Only lengths are reported, never the cut text.
 *
 * @param pointer       JSON pointer of the field in the request body ({@code ""} for a bare text)
 * @param originalChars the field's length before the cut
 * @param keptChars     the characters kept (scanned and masked)
 */
public record Truncation(String pointer, int originalChars, int keptChars) {

    /** Characters removed from the field. */
    public int cutChars() {
        return originalChars - keptChars;
    }
}
