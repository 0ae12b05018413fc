package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.agent.Conversations;
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
 * Conversations over Slack with the official Bolt client in Socket Mode against the Slack double: a direct message
 * or a mention runs the one agent loop (the provider double answers) and the reply lands in the Slack thread; every
 * envelope is acknowledged; the history is re-read from Slack; a {@code disconnect} is followed by a reconnect.
 */
class SlackChannelTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    SlackDouble slack;
    TestRuntime rt;
    final ByteArrayOutputStream logs = new ByteArrayOutputStream();

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
        slack = new SlackDouble();
        Log.to(new PrintStream(logs, true, StandardCharsets.UTF_8));
        Map<String, String> env = new HashMap<>(TestRuntime.azure(provider));
        env.put("SLACK_API_URL", slack.apiUrl());
        env.put("SLACK_BOT_TOKEN", SlackDouble.BOT_TOKEN);
        env.put("SLACK_APP_TOKEN", SlackDouble.APP_TOKEN);
        // Every turn of a stored web thread would compact at this setting; Slack threads must not.
        env.put("CONTEXT_WINDOW_TOKENS", "1000");
        env.put("COMPACTION_THRESHOLD_PERCENT", "1");
        env.put("COMPACTION_TAIL_MESSAGES", "1");
        rt = new TestRuntime(home, env).start();
        TestRuntime.await(() -> slack.connectionsOpen() == 1);
    }

    @AfterEach
    void stop() throws Exception {
        rt.close();
        slack.close();
        provider.close();
        Log.to(System.err);
        assertThat(logs.toString(StandardCharsets.UTF_8)).doesNotContain(SlackDouble.BOT_TOKEN)
                .doesNotContain(SlackDouble.APP_TOKEN);
    }

    @Test
    void aDirectMessageIsAnsweredInItsThreadAndItsEnvelopeAcknowledged() throws Exception {
        provider.enqueue(ProviderDouble.Reply.text("Hello Alice, all builds are green."));
        String ts = slack.directMessage("D0ALICE", "U0ALICE", "how are the builds?");
        TestRuntime.await(() -> !slack.posts().isEmpty());
        assertThat(slack.posts()).containsExactly(
                new SlackDouble.Post("D0ALICE", ts, "Hello Alice, all builds are green."));
        assertThat(slack.acks()).containsExactlyElementsOf(slack.sentEnvelopes());
        assertThat(provider.chats()).hasSize(1);
        assertThat(provider.chats().get(0).body().path("messages").toString()).contains("how are the builds?");
        Conversations.ThreadInfo t = new Conversations(rt.runtime.store()).thread("slack:D0ALICE:" + ts);
        assertThat(t.channel()).isEqualTo("slack");
        assertThat(t.hidden()).isTrue();
    }

    @Test
    void aMentionIsAnsweredOnceInItsThreadWithTheThreadReReadFromSlack() throws Exception {
        provider.enqueue(ProviderDouble.Reply.text("first answer"), ProviderDouble.Reply.text("second answer"));
        String root = slack.mention("C0TEAM", null, "U0ALICE", "<@U0BOT> is the deploy done?");
        TestRuntime.await(() -> slack.posts().size() == 1);
        // Bob writes in the thread without mentioning the agent; the agent hears it on the next mention.
        slack.said("C0TEAM", root, "U0BOB", "note: staging is frozen until Friday");
        slack.mention("C0TEAM", root, "U0ALICE", "<@U0BOT> and staging?");
        TestRuntime.await(() -> slack.posts().size() == 2);
        assertThat(slack.posts()).containsExactly(new SlackDouble.Post("C0TEAM", root, "first answer"),
                new SlackDouble.Post("C0TEAM", root, "second answer"));
        // The channel's message event and app_mention both arrive per mention: both acknowledged, one turn each.
        assertThat(slack.sentEnvelopes()).hasSize(4);
        TestRuntime.await(() -> slack.acks().size() == 4);
        assertThat(slack.acks()).containsExactlyInAnyOrderElementsOf(slack.sentEnvelopes());
        assertThat(provider.chats()).hasSize(2);
        String secondCall = provider.chats().get(1).body().path("messages").toString();
        assertThat(secondCall).contains("staging is frozen until Friday").contains("first answer")
                .contains("and staging?");
        assertThat(secondCall.indexOf("staging is frozen")).isLessThan(secondCall.indexOf("and staging?"));
    }

    @Test
    void slackThreadsAreNotCompactedWhereAWebThreadIs() throws Exception {
        provider.enqueue(ProviderDouble.Reply.text("one"));
        String ts = slack.directMessage("D0ALICE", "U0ALICE", "first");
        TestRuntime.await(() -> slack.posts().size() == 1);
        slack.said("D0ALICE", ts, "U0ALICE", "second");
        SlackDouble.Post reply = slack.posts().get(0);
        provider.enqueue(ProviderDouble.Reply.text("two"));
        slack.send(SlackDouble.JSON.createObjectNode().put("type", "message").put("channel", "D0ALICE")
                .put("user", "U0ALICE").put("text", "third").put("ts", "1800000000.000100").put("thread_ts", ts)
                .put("channel_type", "im"));
        TestRuntime.await(() -> slack.posts().size() == 2);
        assertThat(reply.threadTs()).isEqualTo(ts);
        Conversations c = new Conversations(rt.runtime.store());
        assertThat(c.thread("slack:D0ALICE:" + ts).summary()).isNull();
        assertThat(c.live("slack:D0ALICE:" + ts)).hasSize(c.messages("slack:D0ALICE:" + ts).size());
        assertThat(provider.chats()).hasSize(2); // two turns, no summary call
        assertThat(provider.chats().get(1).body().path("messages").toString()).contains("second").contains("third");
        // The same settings compact a web thread after one turn: the exemption is what kept Slack's intact.
        String web = rt.post("/agents/threads", "{}").json().path("id").asText();
        provider.enqueue(ProviderDouble.Reply.text("a"), ProviderDouble.Reply.text("SUMMARY"));
        assertThat(rt.post("/agents/threads/" + web + "/messages", "{\"text\":\"x\"}").json().path("compacted")
                .asBoolean()).isTrue();
        assertThat(c.thread(web).summary()).isEqualTo("SUMMARY");
    }

    @Test
    void aDisconnectRequestIsFollowedByAReconnectThatKeepsServing() throws Exception {
        slack.disconnect("refresh_requested");
        TestRuntime.await(() -> slack.connectionsOpened() == 2 && slack.connectionsOpen() == 1);
        assertThat(slack.methods().stream().filter("apps.connections.open"::equals).count()).isGreaterThanOrEqualTo(3);
        provider.enqueue(ProviderDouble.Reply.text("still here"));
        String ts = slack.directMessage("D0ALICE", "U0ALICE", "are you there?");
        TestRuntime.await(() -> !slack.posts().isEmpty());
        assertThat(slack.posts()).containsExactly(new SlackDouble.Post("D0ALICE", ts, "still here"));
        TestRuntime.await(() -> slack.acks().size() == 1);
        assertThat(slack.acks()).containsExactlyElementsOf(slack.sentEnvelopes());
    }

    @Test
    void aFailedTurnSaysSoInTheThread() throws Exception {
        provider.enqueue(ProviderDouble.Reply.status(400));
        String ts = slack.directMessage("D0ALICE", "U0ALICE", "hello?");
        TestRuntime.await(() -> !slack.posts().isEmpty());
        assertThat(slack.posts()).containsExactly(
                new SlackDouble.Post("D0ALICE", ts, "Sorry, that run failed. Please try again."));
        assertThat(logs.toString(StandardCharsets.UTF_8)).contains("slack.turn_failed");
    }
}
