package dev.stockade.pii.internal;

import dev.stockade.pii.PiiType;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The placeholders of one request: the same value always gets the same placeholder, and each placeholder
 * carries 50 random bits so that one request's placeholders cannot be guessed from another's. Not thread-safe:
 * one book per request.
 */
public final class PlaceholderBook {

    /** Placeholder tag alphabet: lower-case letters and digits, never mistaken for the type name. */
    static final String ALPHABET = "0123456789abcdefghijklmnopqrstuv";
    static final int TAG_LENGTH = 10;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, String> byValue = new HashMap<>();
    private final Map<String, String> originals = new HashMap<>();

    /** The placeholder for {@code value} of {@code type}, minting one the first time the value is seen. */
    public String placeholder(PiiType type, String value) {
        String key = type + ":" + normalise(type, value);
        String existing = byValue.get(key);
        if (existing != null) {
            return existing;
        }
        String minted;
        do {
            minted = "[" + type.name() + "_" + tag() + "]";
        } while (originals.containsKey(minted));
        byValue.put(key, minted);
        originals.put(minted, value);
        return minted;
    }

    /** Placeholder to original value, for the restorer. */
    public Map<String, String> originals() {
        return Map.copyOf(originals);
    }

    private static String tag() {
        long bits = RANDOM.nextLong();
        char[] out = new char[TAG_LENGTH];
        for (int i = 0; i < TAG_LENGTH; i++) {
            out[i] = ALPHABET.charAt((int) (bits & 31));
            bits >>>= 5;
        }
        return new String(out);
    }

    // The same card, phone or mailbox written differently is the same value.
    private static String normalise(PiiType type, String value) {
        return switch (type) {
            case EMAIL -> value.toLowerCase(Locale.ROOT);
            case CREDIT_CARD -> keep(value, "");
            case PHONE -> keep(value, "+");
            default -> collapse(value);
        };
    }

    private static String collapse(String value) {
        StringBuilder b = new StringBuilder(value.length());
        boolean space = false;
        for (char c : value.trim().toCharArray()) {
            if (Character.isWhitespace(c)) {
                space = true;
                continue;
            }
            if (space) {
                b.append(' ');
                space = false;
            }
            b.append(c);
        }
        return b.toString();
    }

    private static String keep(String value, String extra) {
        StringBuilder b = new StringBuilder(value.length());
        value.chars().filter(c -> Character.isDigit(c) || extra.indexOf(c) >= 0).forEach(c -> b.append((char) c));
        return b.toString();
    }
}
