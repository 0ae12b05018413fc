package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.runtime.channel.slack.SlackRefused;
import dev.stockade.runtime.observe.Log;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Slack adapter's start-up against the Slack double with the official Bolt client: it starts only when both tokens
 * are set, checks their kinds and asks Slack (auth.test, apps.connections.open), says which variable is wrong, and
 * never prints a token.
 */
class SlackStartTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    SlackDouble slack;
    TestRuntime rt;
    final ByteArrayOutputStream logs = new ByteArrayOutputStream();

    @BeforeEach
    void doubles() throws Exception {
        provider = new ProviderDouble();
        slack = new SlackDouble();
        Log.to(new PrintStream(logs, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void stop() throws Exception {
        Log.to(System.err);
        if (rt != null) {
            rt.close();
        }
        slack.close();
        provider.close();
        assertThat(logs.toString(StandardCharsets.UTF_8)).doesNotContain(SlackDouble.BOT_TOKEN)
                .doesNotContain(SlackDouble.APP_TOKEN).doesNotContain("xoxb-wrong-secret-77");
    }

    private TestRuntime runtime(String bot, String app, String... kv) {
        Map<String, String> env = new HashMap<>(TestRuntime.azure(provider));
        env.put("SLACK_API_URL", slack.apiUrl());
        if (bot != null) {
            env.put("SLACK_BOT_TOKEN", bot);
        }
        if (app != null) {
            env.put("SLACK_APP_TOKEN", app);
        }
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        rt = new TestRuntime(home, env);
        return rt;
    }

    @Test
    void withBothTokensTheAdapterChecksThemAndConnectsInSocketMode() throws Exception {
        runtime(SlackDouble.BOT_TOKEN, SlackDouble.APP_TOKEN, "SLACK_EXPECTED_APP_ID", SlackDouble.APP_ID).start();
        TestRuntime.await(() -> slack.connectionsOpen() == 1);
        // The bot token is checked before the app token opens a connection (the SDK may repeat auth.test itself).
        assertThat(slack.methods()).contains("auth.test", "apps.connections.open");
        assertThat(slack.methods().indexOf("auth.test")).isLessThan(slack.methods().indexOf("apps.connections.open"));
        assertThat(logs.toString(StandardCharsets.UTF_8)).contains("slack.started");
    }

    @Test
    void withoutTokensNoSlackCallIsMade() throws Exception {
        runtime(null, null).start();
        assertThat(rt.get("/health").status()).isEqualTo(200);
        assertThat(slack.methods()).isEmpty();
        assertThat(slack.connectionsOpened()).isZero();
    }

    @Test
    void aLoneTokenLeavesTheAdapterOffAndNamesTheMissingVariable() throws Exception {
        runtime(SlackDouble.BOT_TOKEN, null).start();
        assertThat(slack.methods()).isEmpty();
        assertThat(logs.toString(StandardCharsets.UTF_8)).contains("slack.disabled")
                .contains("SLACK_APP_TOKEN is not set");
    }

    @Test
    void aBotTokenSlackRejectsStopsStartWithAClearMessage() {
        assertThatThrownBy(() -> runtime("xoxb-wrong-secret-77", SlackDouble.APP_TOKEN).start())
                .isInstanceOf(SlackRefused.class)
                .hasMessage("Slack rejected SLACK_BOT_TOKEN in auth.test: `invalid_auth` (copy the Bot User OAuth "
                        + "Token from OAuth & Permissions again)");
        assertThat(slack.methods()).containsOnly("auth.test");
        rt = null;
    }

    @Test
    void tokensOfTheWrongKindAreNamedBeforeAnyCall() {
        assertThatThrownBy(() -> runtime(SlackDouble.APP_TOKEN, SlackDouble.APP_TOKEN).start())
                .isInstanceOf(SlackRefused.class)
                .hasMessage("SLACK_BOT_TOKEN must be a bot token starting with `xoxb-` (it holds an app-level token: "
                        + "are the two swapped?)");
        assertThatThrownBy(() -> runtime(SlackDouble.BOT_TOKEN, SlackDouble.BOT_TOKEN).start())
                .isInstanceOf(SlackRefused.class)
                .hasMessageStartingWith("SLACK_APP_TOKEN must be an app-level token starting with `xapp-`");
        assertThat(slack.methods()).isEmpty();
        rt = null;
    }

    @Test
    void anAppTokenSlackRejectsStopsStart() {
        assertThatThrownBy(() -> runtime(SlackDouble.BOT_TOKEN, "xapp-1-A0APP-wrong").start())
                .isInstanceOf(SlackRefused.class)
                .hasMessageStartingWith("Slack rejected SLACK_APP_TOKEN in apps.connections.open: `invalid_auth`");
        assertThat(slack.connectionsOpened()).isZero();
        rt = null;
    }

    @Test
    void anotherAppsBotTokenIsRefusedWhenAnAppIdIsExpected() {
        assertThatThrownBy(() -> runtime(SlackDouble.BOT_TOKEN, SlackDouble.APP_TOKEN, "SLACK_EXPECTED_APP_ID",
                "A0OTHER").start())
                .isInstanceOf(SlackRefused.class)
                .hasMessage("SLACK_BOT_TOKEN belongs to app `A0APP`, but SLACK_EXPECTED_APP_ID is `A0OTHER`");
        rt = null;
    }

    @Test
    void slackOutOfReachIsSaidPlainly() throws Exception {
        String gone = slack.apiUrl();
        slack.close();
        assertThatThrownBy(() -> runtime(SlackDouble.BOT_TOKEN, SlackDouble.APP_TOKEN, "SLACK_API_URL", gone).start())
                .isInstanceOf(SlackRefused.class)
                .hasMessageStartingWith("could not reach Slack at `" + gone + "` to check SLACK_BOT_TOKEN: ");
        slack = new SlackDouble();
        rt = null;
    }
}
