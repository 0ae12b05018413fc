package dev.stockade.proxy.feed;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The SHA-256 of a policy document's text (lowercase hex): how a set names its documents on the feed, so that each
 * distinct document is sent, stored and read once however many sandboxes list it.
 *
 * @param hex 64 lowercase hexadecimal digits
 */
public record DocumentHash(String hex) {
    private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");
    /**
     * What a set lists in place of a shared list its follower does not know: no text has this hash (all zeros), so
     * the follower never fetches it and the set denies everything.
     */
    public static final DocumentHash UNAVAILABLE = new DocumentHash("0".repeat(64));

    public DocumentHash {
        if (hex == null || !HEX.matcher(hex).matches()) {
            throw new IllegalArgumentException("a document hash is 64 lowercase hexadecimal digits");
        }
    }

    /** The hash of {@code text} as UTF-8. */
    public static DocumentHash of(String text) {
        return new DocumentHash(HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8))));
    }

    /** Whether {@code text} is the document this hash names. */
    public boolean names(String text) {
        return text != null && of(text).equals(this);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return hex;
    }
}
