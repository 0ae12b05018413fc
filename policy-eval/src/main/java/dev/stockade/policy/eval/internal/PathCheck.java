package dev.stockade.policy.eval.internal;

/**
 * Paths a path glob is allowed to judge. A path that an upstream server could resolve differently from
 * its text (dot segments, encoded dots, slashes or backslashes, control characters) never matches a
 * path glob, so it passes only rules that do not constrain the path.
 */
final class PathCheck {
    private PathCheck() {
    }

    static boolean safe(String path) {
        if (path.isEmpty() || path.charAt(0) != '/') {
            return false;
        }
        int n = path.length();
        for (int i = 0; i < n; i++) {
            char c = path.charAt(i);
            if (c < 0x21 || c == 0x7f || c == '\\') {
                return false;
            }
            if (c == '%' && i + 2 < n) {
                char a = path.charAt(i + 1);
                char b = (char) (path.charAt(i + 2) | 0x20);
                if ((a == '2' && (b == 'e' || b == 'f')) || (a == '5' && b == 'c') || (a == '0' && b == '0')) {
                    return false;
                }
            }
            if (c == '.' && path.charAt(i - 1) == '/') {
                int j = i + 1;
                if (j < n && path.charAt(j) == '.') {
                    j++;
                }
                if (j == n || path.charAt(j) == '/') {
                    return false;
                }
            }
        }
        return true;
    }
}
