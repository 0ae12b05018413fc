package dev.stockade.api.kernel.web;

/** Makes caller-supplied text safe to quote in a problem detail: bounded and free of control characters. */
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
            b.append(Character.isISOControl(c) ? '?' : c);
        }
        return s.length() > MAX ? b + "…" : b.toString();
    }
}
