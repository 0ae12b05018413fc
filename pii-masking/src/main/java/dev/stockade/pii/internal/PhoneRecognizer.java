package dev.stockade.pii.internal;

import com.google.i18n.phonenumbers.NumberParseException;
import com.google.i18n.phonenumbers.PhoneNumberMatch;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.Phonenumber.PhoneNumber;
import com.google.re2j.Pattern;
import dev.stockade.pii.PiiType;
import java.util.List;

/**
 * PHONE: candidates (digit groups joined by single separators, found by a linear scan) that
 * libphonenumber parses and validates: a national number valid in one of the configured regions, or a
 * {@code +} number valid or of a possible length for its country. Parsing candidates rather than running
 * libphonenumber's own matcher over the text keeps the scan fast where text holds few numbers. A bare run of digits is an id, a port or a timestamp far more often
 * than a phone number in agent traffic, so one is taken only after a cue word such as "phone" or "call".
 */
public final class PhoneRecognizer implements Recognizer {

    private static final PhoneNumberUtil UTIL = PhoneNumberUtil.getInstance();
    private static final Pattern FORMATTED = Pattern.compile("^\\+|[ ()\\-.\\x{00a0}/]");
    private static final Pattern DOTTED_QUAD = Pattern.compile("^\\d{1,3}(?:\\.\\d{1,3}){3}$");
    private static final Pattern DATE_LIKE = Pattern.compile("^\\d{4}[-./]\\d{1,2}[-./]\\d{1,2}");
    private static final String[] CUES = {"phone", "tel", "telephone", "mobile", "cell", "call", "fax", "sms",
        "text me", "whatsapp", "contact", "reach", "number", "ph", "mob", "dial"};

    private final List<String> regions;

    /** Finds numbers written in the national formats of {@code regions} (ISO 3166 codes) and every +number. */
    public PhoneRecognizer(List<String> regions) {
        if (regions.isEmpty()) {
            throw new IllegalArgumentException("at least one region is needed");
        }
        this.regions = List.copyOf(regions);
    }

    @Override
    public void find(String text, List<Span> out) {
        int i = 0;
        while (i < text.length()) {
            int end = candidateEnd(text, i);
            if (end < 0) {
                i++;
                continue;
            }
            int start = text.charAt(i) == '(' && text.indexOf(')', i) >= end ? i + 1 : i;
            String piece = text.substring(start, end);
            int digits = (int) piece.chars().filter(Character::isDigit).count();
            Span span = new Span(start, end, PiiType.PHONE);
            // the cheap tests first: libphonenumber's parse is the costly step
            if (digits >= 7 && digits <= 17 && accepted(text, piece, start) && !glued(text, span) && isNumber(piece)) {
                out.add(span);
            }
            i = end;
        }
    }

    /**
     * The end of the candidate starting at {@code i}, or -1: digit groups joined by single separators
     * (space, dot, hyphen, slash, no-break space, or a closing parenthesis). A double space ends a candidate,
     * so "(415) 867-5309  4539 1488 ..." is read as two candidates rather than rejected as one.
     */
    static int candidateEnd(String text, int i) {
        int n = text.length();
        int k = i;
        if (k < n && text.charAt(k) == '+') {
            k++;
        }
        if (k < n && text.charAt(k) == '(') {
            k++;
        }
        if (k >= n || !isDigit(text.charAt(k)) || i > 0 && isDigit(text.charAt(i - 1))) {
            return -1;
        }
        while (true) {
            while (k < n && isDigit(text.charAt(k))) {
                k++;
            }
            int next = k;
            if (next < n && text.charAt(next) == ')') {
                next++;
                if (next < n && text.charAt(next) == ' ') {
                    next++;
                }
            } else if (next < n && " .-/\u00a0".indexOf(text.charAt(next)) >= 0) {
                next++;
                if (next < n && text.charAt(next) == '(') {
                    next++;
                }
            } else {
                return k;
            }
            if (next >= n || !isDigit(text.charAt(next))) {
                return k;
            }
            k = next;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    // parse() rules a candidate in or out cheaply; libphonenumber's own matcher then applies the checks it makes
    // in running text (national prefix where required, allowed characters), on the few that parsed as valid.
    private boolean isNumber(String piece) {
        if (piece.startsWith("+")) {
            // "+44 7911 304461" is a phone number even where the range is not allocated (yet, or any more):
            // with an explicit country code, the right length for that country is enough.
            PhoneNumber n = parse(piece, "ZZ");
            return n != null && UTIL.isPossibleNumber(n) && matchedWhole(piece, "ZZ",
                    UTIL.isValidNumber(n) ? PhoneNumberUtil.Leniency.VALID : PhoneNumberUtil.Leniency.POSSIBLE);
        }
        if (piece.chars().filter(Character::isDigit).count() > 13) {
            return false; // longer than any national format of the regions read: a card, an id
        }
        for (String region : regions) {
            PhoneNumber n = parse(piece, region);
            if (n != null && UTIL.isValidNumberForRegion(n, region)
                    && matchedWhole(piece, region, PhoneNumberUtil.Leniency.VALID)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchedWhole(String piece, String region, PhoneNumberUtil.Leniency leniency) {
        for (PhoneNumberMatch m : UTIL.findNumbers(piece, region, leniency, Long.MAX_VALUE)) {
            if (m.end() - m.start() >= piece.length() - 1) {
                return true;
            }
        }
        return false;
    }

    private static PhoneNumber parse(String piece, String region) {
        try {
            return UTIL.parse(piece, region);
        } catch (NumberParseException notANumber) {
            return null;
        }
    }

    private static boolean accepted(String text, String raw, int start) {
        if (DOTTED_QUAD.matcher(raw).find() || DATE_LIKE.matcher(raw).find()) {
            return false;
        }
        if (Boundaries.wordAt(text, start - 1) || start > 0 && text.charAt(start - 1) == '.') {
            return false;
        }
        return FORMATTED.matcher(raw).find() || Boundaries.cueBefore(text, start, 40, CUES);
    }

    // A piece of a UUID or a longer token: "d164-6053" or "0625-5459-3b4c".
    private static boolean glued(String text, Span s) {
        if (text.regionMatches(true, Math.max(0, s.start() - 4), "tel:", 0, 4)) {
            return Boundaries.wordAt(text, s.end());
        }
        boolean before = s.start() >= 2 && "-_:/.".indexOf(text.charAt(s.start() - 1)) >= 0
                && Boundaries.wordAt(text, s.start() - 2);
        boolean after = Boundaries.wordAt(text, s.end()) || s.end() + 1 < text.length()
                && "-_:/".indexOf(text.charAt(s.end())) >= 0 && Boundaries.wordAt(text, s.end() + 1);
        return before || after;
    }

}
