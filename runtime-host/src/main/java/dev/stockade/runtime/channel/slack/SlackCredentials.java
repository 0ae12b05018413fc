package dev.stockade.runtime.channel.slack;

import dev.stockade.runtime.config.Sentinels;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The Slack adapter's settings as the environment gives them. Kept free of Bolt types so that a runtime with no
 * Slack configured decides "not configured" without loading the Slack client at all.
 *
 * @param botToken SLACK_BOT_TOKEN ({@code xoxb-}), the Web API identity the agent posts as
 * @param appToken SLACK_APP_TOKEN ({@code xapp-}), the app-level token that opens Socket Mode connections
 * @param expectedAppId SLACK_EXPECTED_APP_ID, or null: the bot token's app must be this one
 * @param apiUrl SLACK_API_URL, the Web API base the methods are called under
 */
public record SlackCredentials(String botToken, String appToken, String expectedAppId, String apiUrl) {
    /** Slack's own Web API base, for a blank SLACK_API_URL. */
    public static final String SLACK_API = "https://slack.com/api/";

    /** Reads the SLACK_* variables through {@code value} (blank counts as unset). */
    public static SlackCredentials from(UnaryOperator<String> value) {
        String api = blankToNull(value.apply("SLACK_API_URL"));
        return new SlackCredentials(blankToNull(value.apply("SLACK_BOT_TOKEN")),
                blankToNull(value.apply("SLACK_APP_TOKEN")), blankToNull(value.apply("SLACK_EXPECTED_APP_ID")),
                api == null ? SLACK_API : api);
    }

    /** Whether the adapter should start: only when both tokens are set. */
    public boolean configured() {
        return botToken != null && appToken != null;
    }

    /** With exactly one token set, the variable that is missing (the adapter stays off and says so). */
    public Optional<String> missingHalf() {
        if (botToken != null && appToken == null) {
            return Optional.of("SLACK_APP_TOKEN");
        }
        if (botToken == null && appToken != null) {
            return Optional.of("SLACK_BOT_TOKEN");
        }
        return Optional.empty();
    }

    /**
     * What is wrong with the tokens' shapes before any call, or empty. A platform sentinel may stand in for either
     * token in routed mode (the gateway swaps the real one in), so it passes the shape check. Never names a token's
     * value, only the variable.
     */
    public Optional<String> shapeProblem() {
        if (!Sentinels.isSentinel(botToken) && !botToken.startsWith("xoxb-")) {
            return Optional.of("SLACK_BOT_TOKEN must be a bot token starting with `xoxb-`"
                    + (botToken.startsWith("xapp-") ? " (it holds an app-level token: are the two swapped?)" : ""));
        }
        if (!Sentinels.isSentinel(appToken) && !appToken.startsWith("xapp-")) {
            return Optional.of("SLACK_APP_TOKEN must be an app-level token starting with `xapp-` (create one with "
                    + "the connections:write scope under Basic Information, App-Level Tokens)");
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        // A record's default toString would print both tokens.
        return "SlackCredentials[botToken=******, appToken=******, expectedAppId=" + expectedAppId + ", apiUrl="
                + apiUrl + "]";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
