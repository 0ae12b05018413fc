package dev.stockade.runtime.web;

import dev.stockade.runtime.http.Response;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.commons.text.StringEscapeUtils;

/**
 * The frame of every web chat page. Every text that came from a model, a person or a payload passes through
 * {@link #text}, and every page carries a Content-Security-Policy without inline script, so markup injected into a
 * reply can neither render nor run. Links are relative to {@code <base href>}, so the pages work under whatever
 * path prefix the platform's ingress puts in front of the runtime.
 */
final class Html {
    /** Same origin only: scripts, styles, fetches and the live stream; no inline script or style, no framing elsewhere. */
    static final String POLICY = "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'";
    static final Map<String, String> HEADERS = Map.of("Content-Security-Policy", POLICY,
            "X-Content-Type-Options", "nosniff", "Referrer-Policy", "same-origin", "Cache-Control", "no-store");

    /** The pages of the navigation bar, with their path relative to the runtime's root. */
    enum Page {
        CHAT("./", "Chat"), PROFILE("profile", "Profile"), DOCUMENTS("documents", "Documents"),
        MEMORY("memory", "Memory"), WEBHOOKS("webhooks", "Webhooks"), CHANNELS("channels", "Channels");

        final String path;
        final String label;

        Page(String path, String label) {
            this.path = path;
            this.label = label;
        }
    }

    private Html() {
    }

    /** {@code s} as HTML text or a double-quoted attribute value; {@code null} as empty. */
    static String text(String s) {
        return s == null ? "" : StringEscapeUtils.escapeHtml4(s);
    }

    /**
     * A whole page. {@code root} is the way back to the runtime's root from the page's path ({@code ./}, or
     * {@code ../} one level down), so that every link, script and fetch resolves under the ingress's prefix.
     */
    static Response page(Page current, String root, String agentName, boolean locked, String body, String... scripts) {
        StringBuilder nav = new StringBuilder();
        for (Page p : Page.values()) {
            nav.append("<a href=\"").append(p.path).append('"').append(p == current ? " aria-current=\"page\"" : "")
                    .append('>').append(p.label).append("</a>");
        }
        StringBuilder js = new StringBuilder("<script type=\"module\" src=\"static/app.js\"></script>");
        for (String s : scripts) {
            js.append("<script type=\"module\" src=\"static/").append(s).append("\"></script>");
        }
        String html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><base href=\"" + root + "\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + text(current.label + " · " + agentName) + "</title>"
                + "<link rel=\"stylesheet\" href=\"static/style.css\">" + js + "</head><body>"
                + "<header><strong id=\"agent-name\">" + text(agentName) + "</strong><nav>" + nav + "</nav>"
                + "<label class=\"switch\"><input type=\"checkbox\" id=\"lock\"" + (locked ? " checked" : "")
                + "> Locked</label></header><main>" + body + "</main>"
                + "<p id=\"status\" role=\"status\" aria-live=\"polite\"></p></body></html>";
        return new Response(200, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8)).withHeaders(HEADERS);
    }

    /** A checkbox whose state is sent as a boolean by the page's form handling. */
    static String checkbox(String name, String label, boolean checked) {
        return "<label><input type=\"checkbox\" name=\"" + name + "\"" + (checked ? " checked" : "") + "> "
                + text(label) + "</label>";
    }

    /** A one-line text field. */
    static String field(String name, String label, String value, String hint) {
        return "<label>" + text(label) + " <input name=\"" + name + "\" value=\"" + text(value) + "\"></label>"
                + (hint == null ? "" : "<small>" + text(hint) + "</small>");
    }
}
