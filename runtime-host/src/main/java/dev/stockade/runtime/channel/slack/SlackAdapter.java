package dev.stockade.runtime.channel.slack;

import com.slack.api.Slack;
import com.slack.api.SlackConfig;
import com.slack.api.bolt.App;
import com.slack.api.bolt.AppConfig;
import com.slack.api.bolt.socket_mode.SocketModeApp;
import com.slack.api.methods.MethodsClient;
import com.slack.api.methods.SlackApiException;
import com.slack.api.methods.response.apps.connections.AppsConnectionsOpenResponse;
import com.slack.api.methods.response.auth.AuthTestResponse;
import com.slack.api.methods.response.chat.ChatPostMessageResponse;
import com.slack.api.model.event.AppMentionEvent;
import com.slack.api.model.event.MessageEvent;
import com.slack.api.socket_mode.SocketModeClient;
import dev.stockade.runtime.agent.AgentTask;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.channel.Broadcast;
import dev.stockade.runtime.channel.SlackDestinations;
import dev.stockade.runtime.observe.Log;
import java.io.IOException;
import java.util.concurrent.Executor;

/**
 * The Slack channel: Bolt for Java in Socket Mode. Start-up checks both tokens against Slack before anything listens,
 * then each direct message or mention runs the one agent loop in its Slack thread, and deliveries addressed to Slack
 * are posted through the same Web API client.
 */
public final class SlackAdapter implements AutoCloseable {
    private final SocketModeApp socket;
    private final Broadcast broadcast;

    private SlackAdapter(SocketModeApp socket, Broadcast broadcast) {
        this.socket = socket;
        this.broadcast = broadcast;
    }

    /**
     * Checks the tokens, connects in Socket Mode and installs the Slack sender on {@code broadcast}; turns run on
     * {@code turns} so that every event is acknowledged at once, as Slack retries envelopes not acknowledged within
     * three seconds.
     */
    public static SlackAdapter start(SlackCredentials creds, AgentTask agent, Conversations conversations,
            Broadcast broadcast, Executor turns) throws SlackRefused {
        if (creds.shapeProblem().isPresent()) {
            throw new SlackRefused(creds.shapeProblem().get());
        }
        SlackConfig config = new SlackConfig();
        config.setMethodsEndpointUrlPrefix(creds.apiUrl().endsWith("/") ? creds.apiUrl() : creds.apiUrl() + "/");
        // The SDK's in-memory call metrics would resolve each token's team with extra auth.test calls; nothing
        // reads them.
        config.setStatsEnabled(false);
        Slack slack = Slack.getInstance(config);
        MethodsClient bot = slack.methods(creds.botToken());
        AuthTestResponse who = checkBot(bot, creds);
        checkApp(slack.methods(creds.appToken()), creds);
        App app = new App(AppConfig.builder().singleTeamBotToken(creds.botToken()).slack(slack).build());
        listen(app, new SlackThreads(bot, who.getUserId(), agent, conversations), turns);
        try {
            SocketModeApp socket = new SocketModeApp(creds.appToken(), app, SocketModeClient.Backend.JavaWebSocket);
            socket.startAsync();
            broadcast.slackSender((to, text) -> post(bot, to, text));
            Log.info("slack.started", "team", who.getTeamId(), "app", who.getAppId(), "bot_user", who.getUserId());
            return new SlackAdapter(socket, broadcast);
        } catch (Exception e) {
            throw new SlackRefused("could not open the Socket Mode connection with SLACK_APP_TOKEN: "
                    + e.getClass().getSimpleName());
        }
    }

    /** Direct messages and mentions run turns; everything else (bots, edits, a channel's talk) is only acknowledged. */
    private static void listen(App app, SlackThreads threads, Executor turns) {
        app.event(MessageEvent.class, (req, ctx) -> {
            MessageEvent e = req.getEvent();
            // In channels the agent answers mentions (app_mention); a direct message needs none.
            if ("im".equals(e.getChannelType()) && e.getSubtype() == null && e.getBotId() == null) {
                turns.execute(() -> threads.answer(SlackThreads.Inbound.of(e)));
            }
            return ctx.ack();
        });
        app.event(AppMentionEvent.class, (req, ctx) -> {
            AppMentionEvent e = req.getEvent();
            if (e.getBotId() == null) {
                turns.execute(() -> threads.answer(SlackThreads.Inbound.of(e)));
            }
            return ctx.ack();
        });
    }

    private static AuthTestResponse checkBot(MethodsClient bot, SlackCredentials creds) throws SlackRefused {
        AuthTestResponse r;
        try {
            r = bot.authTest(q -> q);
        } catch (IOException | SlackApiException e) {
            throw new SlackRefused("could not reach Slack at `" + creds.apiUrl() + "` to check SLACK_BOT_TOKEN: "
                    + e.getClass().getSimpleName());
        }
        if (!r.isOk()) {
            throw new SlackRefused("Slack rejected SLACK_BOT_TOKEN in auth.test: `" + r.getError() + "`"
                    + ("invalid_auth".equals(r.getError()) || "token_revoked".equals(r.getError())
                            ? " (copy the Bot User OAuth Token from OAuth & Permissions again)" : ""));
        }
        if (r.getBotId() == null) {
            throw new SlackRefused("SLACK_BOT_TOKEN belongs to a user, not a bot (auth.test shows no bot_id)");
        }
        if (creds.expectedAppId() != null && !creds.expectedAppId().equals(r.getAppId())) {
            throw new SlackRefused("SLACK_BOT_TOKEN belongs to app `" + r.getAppId()
                    + "`, but SLACK_EXPECTED_APP_ID is `" + creds.expectedAppId() + "`");
        }
        return r;
    }

    /** Opens (and drops) one connection URL, so a bad app token is reported now rather than retried forever. */
    private static void checkApp(MethodsClient app, SlackCredentials creds) throws SlackRefused {
        try {
            AppsConnectionsOpenResponse r = app.appsConnectionsOpen(q -> q);
            if (!r.isOk()) {
                throw new SlackRefused("Slack rejected SLACK_APP_TOKEN in apps.connections.open: `" + r.getError()
                        + "` (an app-level token with the connections:write scope, and Socket Mode enabled)");
            }
        } catch (IOException | SlackApiException e) {
            throw new SlackRefused("could not reach Slack at `" + creds.apiUrl() + "` to check SLACK_APP_TOKEN: "
                    + e.getClass().getSimpleName());
        }
    }

    private static void post(MethodsClient bot, SlackDestinations.Destination to, String text) throws Exception {
        ChatPostMessageResponse r = bot.chatPostMessage(q -> q.channel(to.slackId()).text(text));
        if (!r.isOk()) {
            throw new IOException("chat.postMessage to " + to.slackId() + " failed: " + r.getError());
        }
    }

    @Override
    public void close() {
        broadcast.slackSender(null);
        try {
            socket.stop();
        } catch (Exception e) {
            Log.warn("slack.close", "error", e.getClass().getSimpleName());
        }
    }
}
