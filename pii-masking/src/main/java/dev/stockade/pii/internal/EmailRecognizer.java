package dev.stockade.pii.internal;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.stockade.pii.PiiType;
import java.util.List;
import java.util.Set;

/** EMAIL: RFC 5321 shaped addresses whose domain ends in a letter-only top-level label that is not a file type. */
public final class EmailRecognizer implements Recognizer {

    private static final Pattern EMAIL = Pattern.compile(
            "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
                    + "@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+([A-Za-z]{2,24})");

    // "icon@2x.png" and "logo@retina.svg" are file names, not mailboxes.
    private static final Set<String> FILE_TYPES = Set.of("png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "js",
            "ts", "css", "map", "json", "html", "java", "class", "jar", "py", "rb", "go", "rs", "md", "txt", "yaml",
            "yml", "xml", "lock", "tgz", "zip", "gz", "so", "dll", "exe", "sh", "log", "pdf", "mp4", "mp3", "wasm");

    @Override
    public void find(String text, List<Span> out) {
        int at = text.indexOf('@');
        int done = 0;
        while (at >= 0) {
            // The pattern runs only around an '@' (a local part is at most 64 characters): text without one,
            // most of it, costs a single indexOf.
            int from = Math.max(done, at - 65);
            int to = Math.min(text.length(), at + 256);
            done = findIn(text, from, to, out);
            at = text.indexOf('@', Math.max(at + 1, done));
        }
    }

    private static int findIn(String text, int from, int to, List<Span> out) {
        Matcher m = EMAIL.matcher(text.substring(from, to));
        int end = from;
        while (m.find()) {
            int start = from + m.start();
            boolean cutAtStart = from > 0 && m.start() == 0 && isLocalChar(text.charAt(start - 1));
            boolean cutAtEnd = from + m.end() == to && to < text.length();
            if (cutAtStart || cutAtEnd) {
                continue;
            }
            end = from + m.end();
            accept(text, start, end, m.group(1), out);
        }
        return end;
    }

    private static boolean isLocalChar(char c) {
        return Boundaries.isWordChar(c) || "!#$%&'*+/=?^`{|}~.-".indexOf(c) >= 0;
    }

    private static void accept(String text, int start, int end, String topLabel, List<Span> out) {
        String tld = topLabel.toLowerCase(java.util.Locale.ROOT);
        if (!FILE_TYPES.contains(tld) && !Boundaries.wordAt(text, end)) {
            out.add(new Span(start, end, PiiType.EMAIL));
        }
    }
}
