package dev.stockade.pii.internal;

import dev.stockade.pii.PiiType;
import java.util.List;
import java.util.Set;

/**
 * CREDIT_CARD: 13 to 19 digits, optionally grouped by one kind of separator (space or hyphen), with a valid
 * Luhn check digit and a known issuer range. The networks' published test numbers are not personal data and
 * are left alone, so code and fixtures that quote them keep working.
 */
public final class CardRecognizer implements Recognizer {

    private static final Set<String> TEST_NUMBERS = Set.of("4111111111111111", "4242424242424242",
            "4012888888881881", "4222222222222", "4000056655665556", "4000000000000002", "4000000000000077",
            "4000000000009995", "4000000000000127", "4000000000003220", "4000002500003155", "4000000000000341",
            "4005519200000004", "4009348888881881", "4012000033330026", "4012000077777777", "4217651111111119",
            "4500600000000061", "4000000000000069", "4000000000000101", "5555555555554444", "5105105105105100",
            "5200828282828210", "2223003122003222", "5454545454545454", "2223000048400011", "5425233430109903",
            "378282246310005", "371449635398431", "378734493671000", "6011111111111117", "6011000990139424",
            "6011981111111113", "30569309025904", "38520000023237", "3056930009020004", "36227206271667",
            "3530111333300000", "3566002020360505", "3566111111111113", "6200000000000005", "6205500000000000004",
            "6759649826438453", "6799990100000000019");

    @Override
    public void find(String text, List<Span> out) {
        int i = 0;
        while (i < text.length()) {
            int end = digitRunEnd(text, i);
            if (end < 0) {
                i++;
                continue;
            }
            int start = i;
            i = end;
            if (Boundaries.wordAt(text, start - 1) || separator(text, start - 1) && Boundaries.wordAt(text, start - 2)) {
                continue;
            }
            int cardEnd = longestCard(text, start, end);
            if (cardEnd > 0) {
                out.add(new Span(start, cardEnd, PiiType.CREDIT_CARD));
            }
        }
    }

    /**
     * The end of the run of 13 to 19 digits joined by single spaces or hyphens that starts at {@code i}
     * (a linear scan, so text without long digit runs costs one pass), or -1.
     */
    private static int digitRunEnd(String text, int i) {
        if (!isDigit(text, i) || isDigit(text, i - 1)) {
            return -1;
        }
        int digits = 0;
        int k = i;
        int end = i;
        while (digits < 19 && isDigit(text, k)) {
            digits++;
            end = ++k;
            if (!isDigit(text, k) && (k < text.length() && (text.charAt(k) == ' ' || text.charAt(k) == '-'))
                    && isDigit(text, k + 1)) {
                k++;
            }
        }
        return digits >= 13 ? end : -1;
    }

    private static boolean isDigit(String text, int i) {
        return i >= 0 && i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9';
    }

    /** The end of the longest prefix of {@code [start, end)} that is a card number, or -1. */
    private static int longestCard(String text, int start, int end) {
        for (int e = end; e > start; e--) {
            boolean atDigitEnd = Character.isDigit(text.charAt(e - 1));
            boolean freeAfter = !Boundaries.wordAt(text, e) && !(separator(text, e) && Boundaries.wordAt(text, e + 1));
            if (atDigitEnd && freeAfter && isCard(text.substring(start, e))) {
                return e;
            }
        }
        return -1;
    }

    // "1.4111111111111111", "id-4111..." or "4111...:8080" continue another token; a full stop does not.
    private static boolean separator(String text, int i) {
        if (i < 0 || i >= text.length()) {
            return false;
        }
        char c = text.charAt(i);
        return c == '.' || c == '-' || c == '/' || c == ':';
    }

    static boolean isCard(String raw) {
        boolean spaces = raw.indexOf(' ') >= 0;
        boolean hyphens = raw.indexOf('-') >= 0;
        if (spaces && hyphens) {
            return false;
        }
        String digits = raw.replace(" ", "").replace("-", "");
        return digits.length() >= 13 && digits.length() <= 19 && !TEST_NUMBERS.contains(digits)
                && knownIssuer(digits) && luhn(digits);
    }

    static boolean luhn(String digits) {
        int sum = 0;
        boolean twice = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (twice) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            twice = !twice;
        }
        return sum % 10 == 0;
    }

    static boolean knownIssuer(String d) {
        int len = d.length();
        int p2 = Integer.parseInt(d.substring(0, 2));
        int p3 = Integer.parseInt(d.substring(0, 3));
        int p4 = Integer.parseInt(d.substring(0, 4));
        int p6 = Integer.parseInt(d.substring(0, 6));
        if (d.charAt(0) == '4') {
            return len == 13 || len == 16 || len == 19;
        }
        if (p2 >= 51 && p2 <= 55 || p4 >= 2221 && p4 <= 2720) {
            return len == 16;
        }
        if (p2 == 34 || p2 == 37) {
            return len == 15;
        }
        if (p4 == 6011 || p3 >= 644 && p3 <= 649 || p2 == 65 || p6 >= 622126 && p6 <= 622925) {
            return len >= 16;
        }
        if (p3 >= 300 && p3 <= 305 || p2 == 36 || p2 == 38 || p2 == 39) {
            return len >= 14;
        }
        if (p4 >= 3528 && p4 <= 3589 || p2 == 62) {
            return len >= 16;
        }
        return p2 == 50 || p2 >= 56 && p2 <= 69;
    }
}
