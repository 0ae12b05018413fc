package dev.stockade.runtime.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How configuration values are shown: a secret as a fixed marker that says nothing about it (not even its
 * length), and the user information of every URL ({@code http://user:PW@host}) as {@code ***}, because proxy
 * and endpoint URLs carry passwords and tokens in that part.
 */
public final class Redaction {
    /** What a secret value is printed as. */
    public static final String MARKER = "****** (redacted)";
    /** What the user information of a URL is printed as ({@code ***:***} when it had a password part). */
    public static final String USERINFO = "***";
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://");

    private Redaction() {
    }

    /** Whether {@code variable} holds a URL, by the naming rule of runtime.md's tables. */
    public static boolean urlValued(String variable) {
        return variable.endsWith("_URL") || variable.endsWith("_PROXY") || variable.endsWith("_ENDPOINT");
    }

    /**
     * {@code value} of {@code variable} with URL user information redacted: in every {@code scheme://} URL the
     * text contains, and for a URL-valued variable also in a value written without a scheme
     * ({@code user:pw@proxy:3128}).
     */
    public static String value(String variable, String value) {
        if (value == null) {
            return null;
        }
        if (urlValued(variable) && !SCHEME.matcher(value).find()) {
            return authority(value, 0);
        }
        return urls(value);
    }

    /** {@code value} of {@code variable} as a problem or warning quotes it: in backticks, redacted. */
    public static String quote(String variable, String value) {
        return "`" + value(variable, value) + "`";
    }

    /** {@code text} with the user information of every {@code scheme://} URL in it redacted. */
    public static String urls(String text) {
        if (text == null) {
            return null;
        }
        List<Integer> authorities = new ArrayList<>();
        Matcher m = SCHEME.matcher(text);
        while (m.find()) {
            authorities.add(m.end());
        }
        String out = text;
        // Right to left: redacting one URL changes only the text after its own start.
        for (int i = authorities.size() - 1; i >= 0; i--) {
            out = authority(out, authorities.get(i));
        }
        return out;
    }

    /**
     * Redacts the user information of the authority starting at {@code start}: everything up to the last
     * {@code @} before the next whitespace. A password may hold an unescaped {@code /}, {@code ?}, {@code #} or
     * {@code @}, so the last {@code @} is taken: that may hide more than the user information (a query with an
     * {@code @}, a second URL of a list) but never shows part of a password.
     */
    private static String authority(String text, int start) {
        int end = start;
        while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
            end++;
        }
        int at = text.lastIndexOf('@', end - 1);
        if (at < start) {
            return text;
        }
        String shown = text.substring(start, at).indexOf(':') >= 0 ? USERINFO + ":" + USERINFO : USERINFO;
        return text.substring(0, start) + shown + text.substring(at);
    }
}
