package dev.stockade.cli;

import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.Severity;
import dev.stockade.policy.model.TerminalText;
import java.util.List;
import java.util.Map;

/**
 * Problems as GitHub Actions workflow commands ({@code ::error file=F,line=L,col=C,title=CODE::message}), so that a
 * lint step in a workflow marks the offending lines of a pull request without SARIF upload rights.
 */
final class GithubAnnotations {
    private GithubAnnotations() {
    }

    /** One workflow command a line for every problem of every file, in the order given. */
    static String render(Map<String, List<Problem>> byFile) {
        StringBuilder out = new StringBuilder();
        byFile.forEach((file, problems) -> problems.forEach(p -> out.append(command(file, p)).append('\n')));
        return out.toString();
    }

    /** The workflow command of one problem; a problem without a position annotates the file as a whole. */
    static String command(String file, Problem p) {
        StringBuilder out = new StringBuilder("::")
                .append(p.severity() == Severity.ERROR ? "error" : "warning")
                .append(" file=").append(property(TerminalText.escape(file)));
        if (p.line() > 0) {
            out.append(",line=").append(p.line());
            if (p.column() > 0) {
                out.append(",col=").append(p.column());
            }
        }
        out.append(",title=").append(property(p.code())).append("::");
        // Control characters of user input are made visible first (GitHub's log renders ANSI colours); only the
        // separator before the help is a real line break, which the data escaping then encodes.
        String message = TerminalText.escape(p.message());
        if (p.line() <= 0 && p.pointer() != null && !p.pointer().isEmpty()) {
            message += " (at `" + TerminalText.escape(p.pointer()) + "`)";
        }
        if (p.help() != null) {
            message += "\nhelp: " + TerminalText.escape(p.help());
        }
        return out.append(data(message)).toString();
    }

    /** A command's message, escaped as GitHub's toolkit does ({@code escapeData}): %, CR and LF. */
    static String data(String text) {
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    /** A command property's value, escaped as GitHub's toolkit does ({@code escapeProperty}): also : and ,. */
    static String property(String text) {
        return data(text).replace(":", "%3A").replace(",", "%2C");
    }
}
