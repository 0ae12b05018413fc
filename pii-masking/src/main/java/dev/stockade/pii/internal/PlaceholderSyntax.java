package dev.stockade.pii.internal;

import dev.stockade.pii.PiiType;

/**
 * The shape of a placeholder, {@code [TYPE_tag]} with a ten-character tag of {@code 0-9a-v}, as minted by
 * {@link PlaceholderBook}. Square brackets and ASCII keep it intact through JSON escaping and models' copying.
 */
public final class PlaceholderSyntax {

    /** The longest placeholder: {@code [CREDIT_CARD_} + tag + {@code ]}. */
    public static final int MAX_LENGTH = longest();

    private PlaceholderSyntax() {
    }

    /**
     * At {@code i} of {@code s}: the length of a complete placeholder, 0 if none starts there, or -1 if
     * {@code s} ends inside what could still become one.
     */
    public static int match(CharSequence s, int i) {
        if (s.charAt(i) != '[') {
            return 0;
        }
        boolean incomplete = false;
        for (PiiType t : PiiType.values()) {
            int r = matchType(s, i, t.name());
            if (r > 0) {
                return r;
            }
            incomplete |= r < 0;
        }
        return incomplete ? -1 : 0;
    }

    private static int matchType(CharSequence s, int i, String type) {
        int len = 1 + type.length() + 1 + PlaceholderBook.TAG_LENGTH + 1;
        for (int k = 1; k < len; k++) {
            if (i + k >= s.length()) {
                return -1;
            }
            char c = s.charAt(i + k);
            boolean ok;
            if (k <= type.length()) {
                ok = c == type.charAt(k - 1);
            } else if (k == type.length() + 1) {
                ok = c == '_';
            } else if (k < len - 1) {
                ok = PlaceholderBook.ALPHABET.indexOf(c) >= 0;
            } else {
                ok = c == ']';
            }
            if (!ok) {
                return 0;
            }
        }
        return len;
    }

    private static int longest() {
        int max = 0;
        for (PiiType t : PiiType.values()) {
            max = Math.max(max, t.name().length() + 3 + PlaceholderBook.TAG_LENGTH);
        }
        return max;
    }
}
