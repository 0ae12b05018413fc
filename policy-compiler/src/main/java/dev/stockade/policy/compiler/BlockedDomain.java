package dev.stockade.policy.compiler;

/**
 * A domain a project policy allows that the organization ceiling does not let through at all.
 *
 * @param pattern    the entry's pattern as written
 * @param policy     the granting policy
 * @param entryIndex the entry's index in that policy's {@code allowedDomains}
 * @param reason     {@code ceiling-denies} (a ceiling deny entry covers it) or {@code outside-ceiling}
 *                   (no ceiling entry allows it and the ceiling's default denies)
 * @param ceilingPolicy the ceiling policy whose deny entry blocks it, {@code null} for outside-ceiling
 * @param ceilingEntryIndex that entry's index, -1 for outside-ceiling
 * @param detail     one line for people
 */
public record BlockedDomain(String pattern, String policy, int entryIndex, String reason, String ceilingPolicy,
        int ceilingEntryIndex, String detail) {
}
