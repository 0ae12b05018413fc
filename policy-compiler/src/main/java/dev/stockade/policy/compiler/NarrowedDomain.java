package dev.stockade.policy.compiler;

import java.util.List;

/**
 * A domain a project policy allows that the organization ceiling lets through only in part.
 *
 * @param pattern    the entry's pattern as written
 * @param policy     the granting policy
 * @param entryIndex the entry's index in that policy's {@code allowedDomains}
 * @param reasons    stable codes, in this order when several apply: {@code partly-outside-ceiling},
 *                   {@code scheme-narrowed}, {@code callers-narrowed}, {@code rules-narrowed},
 *                   {@code transport-upstream}
 * @param detail     one line for people
 */
public record NarrowedDomain(String pattern, String policy, int entryIndex, List<String> reasons, String detail) {

    /** Copies the reasons, so the record stays immutable. */
    public NarrowedDomain {
        reasons = List.copyOf(reasons);
    }
}
