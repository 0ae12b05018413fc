package dev.stockade.policy.eval.internal;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * What a request path is, decided once before any path glob judges it (docs/semantics.md, "What a
 * request path is"). A path that a mainstream origin could read as another path than its text says is
 * refused: it never matches a path glob, so it passes only rules that do not constrain the path. A path
 * that origins read in several ways that cannot escape a segment (path parameters, percent-escapes) is
 * matched in every reading, so a glob admits it only when it admits what each origin serves.
 *
 * <p>Refused: not starting with {@code /}; a byte outside visible ASCII ({@code 0x21..0x7e}); a
 * backslash; an empty segment ({@code //}, or a segment that is only {@code ;params}); a segment that is
 * {@code .} or {@code ..} once its {@code ;params} are removed (Tomcat and Jetty treat {@code ..;x} as
 * {@code ..}); a {@code %} not followed by two hex digits; an escape of {@code .}, {@code /}, {@code \},
 * {@code %} (double encoding) or a control character; escaped bytes that are not well-formed UTF-8
 * (overlong forms included).
 *
 * <p>Readings of an admitted path: its text (RFC 3986 and nginx, whose dot segments, merged slashes and
 * decoded separators are refused above), and, when it holds {@code ;}, its text with every
 * {@code ;params} removed (Tomcat, Jetty). Escapes are compared as written (docs/globs.md): what is
 * left after the refusals decodes to characters inside one segment, so a glob without {@code %} that
 * admits the text admits its decoded form too.
 */
public final class PathCheck {
    /** The readings of a path that a glob never judges. */
    public static final String[] REFUSED = new String[0];

    private PathCheck() {
    }

    /**
     * {@code null} when the path is read one way only (its text; the common case, which allocates
     * nothing), {@link #REFUSED} when it is refused, otherwise every reading (its text first).
     */
    public static String[] readings(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return REFUSED;
        }
        int n = path.length();
        boolean params = false;
        boolean escapes = false; // escapes above 0x7f, whose bytes must be well-formed UTF-8
        int segment = 1;
        int nameEnd = -1; // the first `;` of the current segment, -1 when none yet
        for (int i = 1; i <= n; i++) {
            char c = i < n ? path.charAt(i) : '/';
            if (c == '/') {
                if (refusedSegment(path, segment, nameEnd < 0 ? i : nameEnd, i)) {
                    return REFUSED;
                }
                segment = i + 1;
                nameEnd = -1;
            } else if (c < 0x21 || c > 0x7e || c == '\\') {
                return REFUSED;
            } else if (c == ';') {
                params = true;
                nameEnd = nameEnd < 0 ? i : nameEnd;
            } else if (c == '%') {
                if (!escapeAllowed(path, i)) {
                    return REFUSED;
                }
                escapes |= hex(path.charAt(i + 1)) >= 8; // a byte of a multi-byte character
            }
        }
        if (escapes && decode(path) == null) {
            return REFUSED;
        }
        return params ? new String[] {path, stripParameters(path)} : null;
    }

    /** Whether {@code path} is refused (never matches a path glob). */
    public static boolean refused(String path) {
        return readings(path) == REFUSED;
    }

    /** Whether a glob admits the path in every reading ({@code readings} from {@link #readings}). */
    public static boolean matches(dev.stockade.policy.glob.Glob glob, String path, String[] readings) {
        if (readings == null) {
            return glob.matches(path);
        }
        if (readings.length == 0) {
            return false;
        }
        for (String r : readings) {
            if (!glob.matches(r)) {
                return false;
            }
        }
        return true;
    }

    /**
     * An empty segment, or a dot segment once its parameters are removed: the segment is
     * {@code [start, end)}, its name (before any {@code ;}) {@code [start, nameEnd)}. Linear in the path:
     * each character is looked at once by the caller.
     */
    private static boolean refusedSegment(String path, int start, int nameEnd, int end) {
        int len = nameEnd - start;
        if (len == 0) {
            return nameEnd < end || end < path.length(); // a trailing slash is the only empty segment
        }
        return path.charAt(start) == '.' && (len == 1 || len == 2 && path.charAt(start + 1) == '.');
    }

    /** A well-formed escape of a character that cannot change a path's segments. */
    private static boolean escapeAllowed(String path, int at) {
        if (at + 2 >= path.length()) {
            return false;
        }
        int hi = hex(path.charAt(at + 1));
        int lo = hex(path.charAt(at + 2));
        if (hi < 0 || lo < 0) {
            return false;
        }
        int b = hi * 16 + lo;
        return b >= 0x20 && b != 0x7f && b != '.' && b != '/' && b != '\\' && b != '%';
    }

    /** An ASCII hex digit's value, -1 for anything else (Character.digit would take other scripts' digits). */
    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char l = (char) (c | 0x20);
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }

    /** The path with every escape decoded as UTF-8; {@code null} when the bytes are not well-formed UTF-8. */
    private static String decode(String path) {
        if (path.indexOf('%') < 0) {
            return path;
        }
        byte[] bytes = new byte[path.length()];
        int n = 0;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                bytes[n++] = (byte) (hex(path.charAt(i + 1)) * 16 + hex(path.charAt(i + 2)));
                i += 2;
            } else {
                bytes[n++] = (byte) c;
            }
        }
        try {
            // the JDK's decoder refuses overlong forms, surrogates and truncated sequences
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, n)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The path without the {@code ;params} of each segment, as Tomcat and Jetty read it. */
    private static String stripParameters(String path) {
        StringBuilder b = new StringBuilder(path.length());
        boolean inParams = false;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '/') {
                inParams = false;
            } else if (c == ';') {
                inParams = true;
            }
            if (!inParams) {
                b.append(c);
            }
        }
        return b.toString();
    }
}
