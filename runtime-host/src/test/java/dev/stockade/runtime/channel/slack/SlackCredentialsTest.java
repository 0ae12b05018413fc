package dev.stockade.runtime.channel.slack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SLACK_* variables as the adapter reads them: when it starts, the token-kind check, and no token in print. */
class SlackCredentialsTest {
    private static SlackCredentials of(String... kv) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return SlackCredentials.from(env::get);
    }

    @Test
    void bothTokensAreNeededAndALoneOneNamesTheOther() {
        assertThat(of().configured()).isFalse();
        assertThat(of().missingHalf()).isEmpty();
        assertThat(of("SLACK_BOT_TOKEN", "xoxb-1").missingHalf()).contains("SLACK_APP_TOKEN");
        assertThat(of("SLACK_APP_TOKEN", "xapp-1", "SLACK_BOT_TOKEN", "  ").missingHalf()).contains("SLACK_BOT_TOKEN");
        assertThat(of("SLACK_BOT_TOKEN", "xoxb-1", "SLACK_APP_TOKEN", "xapp-1").configured()).isTrue();
    }

    @Test
    void aPlatformSentinelPassesTheKindCheckInRoutedMode() {
        String sentinel = "__platform_cred:0b7c6f1e-6a52-4f5e-9a55-2d4c1f3e8a90__";
        assertThat(of("SLACK_BOT_TOKEN", sentinel, "SLACK_APP_TOKEN", sentinel).shapeProblem()).isEmpty();
        assertThat(of("SLACK_BOT_TOKEN", "xoxp-user-token", "SLACK_APP_TOKEN", "xapp-1").shapeProblem())
                .contains("SLACK_BOT_TOKEN must be a bot token starting with `xoxb-`");
    }

    @Test
    void printingTheSettingsShowsNoToken() {
        SlackCredentials c = of("SLACK_BOT_TOKEN", "xoxb-very-secret-1", "SLACK_APP_TOKEN", "xapp-very-secret-2");
        assertThat(c.toString()).doesNotContain("very-secret").contains("botToken=******");
        assertThat(c.apiUrl()).isEqualTo("https://slack.com/api/");
    }
}
