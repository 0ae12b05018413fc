package dev.stockade.api.clusters;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The path a cluster proxy request forwards, as received (percent-encoding kept): it must start with {@code /}, and
 * no segment may be empty or decode to {@code .}, {@code ..} or hold a slash or backslash, so the path cannot climb out
 * of the API server URL's own path or be read differently by the cluster than here.
 */
final class ProxyPaths {
    static final int MAX_LENGTH = 4096;

    private ProxyPaths() {
    }

    static String check(String rawPath) {
        if (rawPath == null || rawPath.length() < 2 || rawPath.charAt(0) != '/' || rawPath.length() > MAX_LENGTH) {
            throw new ApiProblem(ProblemCode.INVALID_PARAMETER, "the cluster proxy needs a path such as `/api/v1/pods`"
                    + " (at most " + MAX_LENGTH + " characters)");
        }
        for (String segment : rawPath.substring(1).split("/", -1)) {
            String decoded;
            try {
                decoded = URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw bad("a malformed percent-encoding");
            }
            if (segment.isEmpty()) {
                throw bad("an empty segment");
            }
            if (decoded.equals(".") || decoded.equals("..")) {
                throw bad("a `.` or `..` segment");
            }
            if (decoded.contains("/") || decoded.contains("\\") || decoded.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                throw bad("an encoded slash, backslash or control character");
            }
        }
        return rawPath;
    }

    private static ApiProblem bad(String what) {
        return new ApiProblem(ProblemCode.INVALID_PARAMETER, "the cluster proxy path has " + what);
    }
}
