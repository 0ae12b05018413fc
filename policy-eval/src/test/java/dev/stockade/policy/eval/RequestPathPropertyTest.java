package dev.stockade.policy.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.eval.internal.PathCheck;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property (seeded, reproducible): for random paths and random path rules, no path the program admits
 * is served by a mainstream origin as a path the rule would refuse. Each origin's reading is modelled
 * here on its own, independently of {@link PathCheck}: RFC 3986 (percent-encoding normalisation, then
 * remove_dot_segments), nginx (decode, merge slashes, resolve dot segments) and Tomcat (strip
 * {@code ;params} per segment, decode, refuse {@code %2f}, backslash as a separator, merge slashes,
 * resolve dot segments). A reading the origin refuses (400) constrains nothing.
 */
class RequestPathPropertyTest {
    private static final long SEED = 0x5a0c4ade12L;
    private static final int TRIES = 40_000;
    private static final String[] SEGMENTS = {"a", "b", "user", "repos", ".", "..", "..;", ".;", "..;x=1", ";x",
        "a;b", "a;.txt", "%2e", "%2E%2e", ".%2e", "%2f", "%5c", "\\", "..\\", "%41", "%3b", "%25", "%252e",
        "%c0%ae", "%e0%80%ae", "%c3%a9", "x.txt", "", "%00", "a%20b", "~x", "b..", "...", "%2e;"};
    private static final String[] GLOB_SEGMENTS = {"a", "b", "user", "repos", "*", "**", "*.txt", "a*", "x.txt",
        "b*", "...", "*;*", "**", "**", "*", "*"};

    @Test
    void noAdmittedPathIsServedAsARefusedOne() {
        Random random = new Random(SEED);
        int admitted = 0;
        for (int i = 0; i < TRIES; i++) {
            String path = randomPath(random, SEGMENTS, 1 + random.nextInt(5));
            GlobResult compiled = Glob.compile(GlobKind.PATH, randomPath(random, GLOB_SEGMENTS, 1 + random.nextInt(3)));
            if (!compiled.ok()) {
                continue;
            }
            Glob glob = compiled.glob();
            if (!PathCheck.matches(glob, path, PathCheck.readings(path))) {
                continue;
            }
            admitted++;
            for (String served : new String[] {rfc3986(path), nginx(path), tomcat(path)}) {
                if (served != null) {
                    assertThat(glob.matches(served)).as("seed %s: %s admits %s, served as %s", SEED, glob, path,
                            served).isTrue();
                }
            }
        }
        // the generator must reach the interesting region, or the property says nothing
        assertThat(admitted).isGreaterThan(TRIES / 50);
    }

    private static String randomPath(Random random, String[] segments, int count) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < count; i++) {
            b.append('/').append(segments[random.nextInt(segments.length)]);
        }
        return b.toString();
    }

    /** RFC 3986 section 6.2.2: decode escaped unreserved characters, then remove_dot_segments. */
    static String rfc3986(String path) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%' && i + 2 < path.length() && isHex(path.charAt(i + 1)) && isHex(path.charAt(i + 2))) {
                char d = (char) Integer.parseInt(path.substring(i + 1, i + 3), 16);
                boolean unreserved = Character.isLetterOrDigit(d) && d < 0x80 || "-._~".indexOf(d) >= 0;
                b.append(unreserved ? String.valueOf(d) : path.substring(i, i + 3).toUpperCase());
                i += 2;
            } else {
                b.append(c);
            }
        }
        return resolveDots(b.toString(), false);
    }

    /** nginx: decode every escape, merge slashes, resolve dot segments ({@code ;} is an ordinary character). */
    static String nginx(String path) {
        String decoded = decode(path);
        return decoded == null ? null : resolveDots(decoded, true);
    }

    /** Tomcat: strip path parameters, decode (refusing %2f), backslash is a separator, merge, resolve dots. */
    static String tomcat(String path) {
        StringBuilder stripped = new StringBuilder();
        boolean params = false;
        for (char c : path.toCharArray()) {
            params = c != '/' && (params || c == ';');
            if (!params) {
                stripped.append(c);
            }
        }
        if (stripped.toString().toLowerCase().contains("%2f")) {
            return null;
        }
        String decoded = decode(stripped.toString());
        return decoded == null ? null : resolveDots(decoded.replace('\\', '/'), true);
    }

    private static String decode(String path) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= path.length() || !isHex(path.charAt(i + 1)) || !isHex(path.charAt(i + 2))) {
                    return null;
                }
                out.write(Integer.parseInt(path.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        // lenient, as servers are: an overlong form is read by some as the character it encodes
        return overlongDots(out.toByteArray());
    }

    /** UTF-8 decoded leniently: the overlong forms of '.' and '/' become those characters. */
    private static String overlongDots(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.ISO_8859_1);
        s = s.replace("\u00c0\u00ae", ".").replace("\u00e0\u0080\u00ae", ".").replace("\u00c0\u00af", "/");
        return new String(s.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    /** remove_dot_segments; {@code merge} also collapses empty segments. Null when {@code ..} leaves the root. */
    private static String resolveDots(String path, boolean merge) {
        Deque<String> out = new ArrayDeque<>();
        String[] parts = path.split("/", -1);
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i];
            boolean last = i == parts.length - 1;
            if (p.equals(".")) {
                if (last) {
                    out.addLast("");
                }
            } else if (p.equals("..")) {
                if (out.isEmpty()) {
                    return null;
                }
                out.removeLast();
                if (last) {
                    out.addLast("");
                }
            } else if (!(merge && p.isEmpty() && !last)) {
                out.addLast(p);
            }
        }
        return "/" + String.join("/", out);
    }

    private static boolean isHex(char c) {
        return c < 0x80 && Character.digit(c, 16) >= 0;
    }
}
