package dev.stockade.pii;

/**
 * The bounded work a single request may cost: text is scanned in windows, and once a request has scanned
 * {@code maxCharsPerRequest} characters the rest of the field, and every later field, is cut and reported
 * rather than sent unmasked. Limits are per masker, never JVM statics.
 *
 * @param maxCharsPerRequest characters of text scanned per request before fields are truncated
 * @param windowChars        characters scanned per window; bounds the work of one recogniser call
 * @param windowOverlap      characters a window reaches past its end, so an entity across a boundary is found
 */
public record ScanBudget(int maxCharsPerRequest, int windowChars, int windowOverlap) {

    /** 4 MiB of text per request (about a million tokens), 8 KiB windows overlapping by 512 characters. */
    public static final ScanBudget DEFAULT = new ScanBudget(4 << 20, 8 << 10, 512);

    public ScanBudget {
        if (maxCharsPerRequest < 0) {
            throw new IllegalArgumentException("maxCharsPerRequest must not be negative, got " + maxCharsPerRequest);
        }
        if (windowOverlap < 64 || windowChars < 2 * windowOverlap) {
            throw new IllegalArgumentException("window must be at least twice its overlap and the overlap at least 64, got "
                    + windowChars + " and " + windowOverlap);
        }
    }
}
