package dev.stockade.api.kernel.web;

import dev.stockade.policy.model.NameCharacters;

/**
 * Makes caller-supplied text safe to quote in a problem detail: bounded and free of the characters a name may not
 * contain (controls, line separators, bidirectional formatting), which could reorder or break the detail.
 */
public final class Text {
    private static final int MAX = 120;

    private Text() {
    }

    public static String clip(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(Math.min(s.length(), MAX));
        for (int i = 0; i < s.length() && b.length() < MAX; i++) {
            char c = s.charAt(i);
            b.append(NameCharacters.isForbidden(c) ? '?' : c);
        }
        return s.length() > MAX ? b + "…" : b.toString();
    }
}
