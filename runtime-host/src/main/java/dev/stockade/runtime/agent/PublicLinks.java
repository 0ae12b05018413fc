package dev.stockade.runtime.agent;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Links the agent sends, on {@code AGENT_PUBLIC_URL} (path prefix kept, trailing slashes already stripped
 * by the configuration). Without a public origin there is nothing to link to, so the text says what to open
 * instead (the web chat and the thread's title).
 */
public final class PublicLinks {
    private final String base;

    /** {@code publicUrl} as the configuration resolved it, or {@code null} when there is no public origin. */
    public PublicLinks(String publicUrl) {
        this.base = publicUrl == null || publicUrl.isBlank() ? null : publicUrl;
    }

    /** The public base, or {@code null}. */
    public String base() {
        return base;
    }

    /** A link to {@code path} (starting with {@code /}) under the public base, or {@code null} without one. */
    public String link(String path) {
        return base == null ? null : base + path;
    }

    /** The web chat's link to {@code threadId}, or {@code null} without a public base. */
    public String thread(String threadId) {
        return link("/chat/" + URLEncoder.encode(threadId, StandardCharsets.UTF_8).replace("+", "%20"));
    }

    /** One line pointing a reader at the web copy of a message: a link, or what to open. */
    public String pointer(String threadId, String title) {
        String link = thread(threadId);
        return link != null ? "View in the web chat: " + link
                : "In the agent's web chat, open the thread \"" + title + "\".";
    }

    /** What the system prompt says about links. */
    public String promptSection() {
        if (base != null) {
            return "\n## Links\nYour public address is " + base + ". Links you give people start with it: the web "
                    + "chat is " + base + "/chat/<thread id>; a page served on your exposed web port is " + base
                    + "/<path>.\n";
        }
        return "\n## Links\nYou have no public address, so do not write links to yourself. Say what to open "
                + "instead: \"the agent's web chat\", a thread's title, or a path on the exposed web port.\n";
    }
}
