package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real terminal UI, in its own JVM in a pseudo-terminal, against a real runtime on the provider double: replies
 * stream as they are written, slash commands change the runtime through its API, control sequences from a model
 * arrive as text, a resized window is followed, and Ctrl-C or SIGTERM leaves the terminal in the mode it was found in.
 */
class TerminalUiTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    TestRuntime rt;

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
        rt = new TestRuntime(home.resolve("runtime"), TestRuntime.azure(provider)).start();
    }

    @AfterEach
    void stop() {
        rt.close();
        provider.close();
    }

    private PtySession tui(int cols) throws Exception {
        PtySession t = PtySession.tui(home, cols, 30, "--url", rt.url(""));
        t.awaitPrompt(0);
        return t;
    }

    /** Types a line and waits until the TUI has carried it out and prompts again; what it showed meanwhile. */
    private static String enter(PtySession t, String line) throws Exception {
        int mark = t.mark();
        t.type(line + "\r");
        t.awaitPrompt(mark);
        return t.visibleSince(mark);
    }

    @Test
    void repliesStreamAsTheyArriveAndControlSequencesArriveAsText() throws Exception {
        try (PtySession t = tui(100)) {
            assertThat(enter(t, "/verbose on")).contains("verbose: on");
            provider.holdChats().enqueue(ProviderDouble.Reply.tool("Checking my notes.", "memory_search",
                    "{\"query\":\"tea\"}"), ProviderDouble.Reply.text("Tea \u001b]0;pwned\u0007 and \u001b[2J and "
                            + "\u009b31m and \u0008\u0008 done. │ ─ ┼ 表"));
            provider.release(1);
            int mark = t.mark();
            t.type("don't forget!! what do I drink?\r");
            // The second model call is held at the double: the first step and the tool were shown before it.
            t.await(mark, "· memory_search");
            assertThat(t.visibleSince(mark)).contains("Checking my notes.");
            TestRuntime.await(() -> provider.chats().size() == 2);
            assertThat(WebhookReceiverTest.lastUserText(provider.chats().get(0))).isEqualTo("don't forget!! what do I drink?");
            provider.release(1);
            t.awaitPrompt(mark);
            String raw = t.since(mark);
            assertThat(t.visibleSince(mark)).contains("Tea ^[]0;pwned^G and ^[[2J and \\u009b31m and ^H^H done. │ ─ ┼ 表");
            assertThat(raw).doesNotContain("\u001b]0;pwned").doesNotContain("\u001b[2J").doesNotContain("\u009b")
                    .doesNotContain("\u0007").doesNotContain("\u0008");
        }
    }

    @Test
    void slashCommandsChangeTheRuntimeThroughItsApi() throws Exception {
        provider.fallback(TerminalUiTest::echoToolResult);
        try (PtySession t = tui(100)) {
            assertThat(enter(t, "/threads")).contains("no threads yet");
            provider.enqueue(ProviderDouble.Reply.text("Hello, person."));
            assertThat(enter(t, "hello there")).contains("Hello, person.");
            assertThat(enter(t, "/threads")).containsPattern("\\*  1  hello there  [0-9a-f]{8}");

            assertThat(enter(t, "/model some-model")).contains("main model: some-model");
            assertThat(rt.get("/agents/profile").json().path("modelId").asText()).isEqualTo("some-model");
            assertThat(enter(t, "/cron-model nightly-model")).contains("cron model: nightly-model");
            assertThat(enter(t, "/model default")).contains("main model: the environment's default");
            JsonNode profile = rt.get("/agents/profile").json();
            assertThat(profile.path("modelId").isNull()).isTrue();
            assertThat(profile.path("cronModelId").asText()).isEqualTo("nightly-model");
            assertThat(enter(t, "/model a b")).contains("! a model id has no spaces or special characters (HTTP 400)");

            assertThat(enter(t, "/lock on")).contains("lock: on");
            assertThat(rt.get("/agents/profile").json().path("lockedIn").asBoolean()).isTrue();
            provider.enqueue(ProviderDouble.Reply.tool(null, "write_document", "{\"kind\":\"soul\",\"content\":\"grumpy\"}"));
            assertThat(enter(t, "Change your soul to grumpy")).contains("· write_document (refused or failed)")
                    .contains("Refused: this would have replaced the Soul document with 6 characters of new text.");
            assertThat(enter(t, "/lock off")).contains("lock: off");
            assertThat(rt.get("/agents/profile").json().path("lockedIn").asBoolean()).isFalse();

            // Tab completes a command; the up arrow (the key terminfo names for xterm) recalls the last line.
            assertThat(enter(t, "/verb\ton")).contains("verbose: on");
            assertThat(rt.get("/agents/profile").json().path("verbose").asBoolean()).isTrue();
            assertThat(enter(t, "/verbose off")).contains("verbose: off");
            assertThat(enter(t, "\u001bOA")).contains("verbose: off");
            assertThat(enter(t, "/compact")).contains("nothing to compact");
            assertThat(enter(t, "/new")).contains("your next message starts it");
            assertThat(enter(t, "/resume 1")).contains("── hello there ─").contains("> hello there")
                    .contains("Hello, person.");
            assertThat(enter(t, "/frobnicate")).contains("! unknown command `/frobnicate`");
            assertThat(enter(t, "/lock maybe")).contains("! `/lock` takes `on` or `off`, not `maybe`");
            int mark = t.mark();
            t.type("/quit\r");
            assertThat(t.awaitExit()).isZero();
            assertThat(t.awaitLine(mark, "tui-exit=")).isEqualTo("tui-exit=0\n");
        }
    }

    @Test
    void aResizedWindowIsFollowedAndCtrlCLeavesTheTerminalAsItWasFound() throws Exception {
        String title = "a thread whose title is far longer than a narrow window is wide, to be clipped";
        rt.post("/agents/threads", "{\"title\":\"" + title + "\"}");
        provider.holdChats(); // the one turn of this test waits at the double until the test ends
        try (PtySession t = tui(100)) {
            assertThat(enter(t, "/threads")).contains(title);
            t.resize(40, 20);
            String narrow = enter(t, "/threads");
            List<String> rows = listRows(narrow);
            assertThat(rows).hasSize(1).allSatisfy(r -> assertThat(r.length()).isLessThanOrEqualTo(40));
            assertThat(rows.get(0)).startsWith("   1  a thread whose").contains("…").doesNotContain("clipped");
            t.resize(120, 20);
            assertThat(listRows(enter(t, "/threads")).get(0)).contains(title);

            // At the prompt the line editor holds the terminal in raw mode.
            assertThat(stty(t.tuiTerminal())).containsPattern("(^|\\s)-icanon(\\s|$)").containsPattern("(^|\\s)-echo(\\s|$)");
            int mark = t.mark();
            t.type("take your time\r");
            TestRuntime.await(() -> provider.chats().size() == 1);
            t.type("\u0003");
            t.await(mark, "stopped following the reply");
            t.awaitPrompt(mark);
            mark = t.mark();
            t.type("\u0003");
            assertThat(t.awaitExit()).isZero();
            String termios = t.awaitLine(mark, "termios:");
            assertThat(t.visibleSince(mark)).contains("tui-exit=0").doesNotContain("Exception");
            assertThat(termios).containsPattern("\\sicanon\\s").containsPattern("\\secho\\s").containsPattern("\\sisig\\s");
            // The turn the TUI stopped following still ends, and is stored, in the runtime.
            provider.release(1);
            String thread = rt.get("/agents/threads").json().path("threads").get(0).path("id").asText();
            TestRuntime.await(() -> stored(thread).contains("\"role\":\"assistant\""));
        } finally {
            provider.release(2);
        }
    }

    @Test
    void aTuiStoppedBySigtermStillRestoresTheTerminal() throws Exception {
        try (PtySession t = tui(100)) {
            assertThat(stty(t.tuiTerminal())).containsPattern("(^|\\s)-icanon(\\s|$)");
            int mark = t.mark();
            assertThat(t.tuiProcess().destroy()).isTrue(); // SIGTERM while a line is being edited
            assertThat(t.awaitExit()).isZero();
            String termios = t.awaitLine(mark, "termios:");
            assertThat(t.visibleSince(mark)).contains("tui-exit=143");
            assertThat(termios).containsPattern("\\sicanon\\s")
                    .containsPattern("\\secho\\s");
        }
    }

    @Test
    void anUnreachableRuntimeIsOneClearLineAndExitStatus2() throws Exception {
        int port = rt.runtime.port();
        rt.close();
        try (PtySession t = PtySession.tui(home, 100, 30, "--url", "http://user:secret@127.0.0.1:" + port)) {
            assertThat(t.awaitExit()).isZero();
            t.awaitLine(0, "termios:");
            String shown = t.visibleSince(0);
            assertThat(shown).contains("stockade runtime tui: cannot reach the agent runtime at http://***:***@127.0.0.1:"
                    + port + ": connection refused").contains("tui-exit=2").doesNotContain("secret")
                    .doesNotContain("Exception").doesNotContain("\tat ");
        }
        rt = new TestRuntime(home.resolve("runtime"), TestRuntime.azure(provider)).start();
    }

    private String stored(String thread) {
        try {
            return rt.get("/agents/threads/" + thread + "/messages").body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The rows of a /threads list in what the terminal showed: the lines that start with a thread's number. */
    private static List<String> listRows(String shown) {
        List<String> rows = new ArrayList<>();
        for (String line : shown.split("\n")) {
            if (line.matches("[ *] +[0-9]+  .*")) {
                rows.add(line);
            }
        }
        return rows;
    }

    private static String stty(Path tty) throws Exception {
        Process p = new ProcessBuilder("stty", "-a", "-F", tty.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out.replace('\n', ' ');
    }

    /** A model that reports what its last tool answered, as a model told of a refusal states it. */
    private static ProviderDouble.Reply echoToolResult(ProviderDouble.Call call) {
        JsonNode messages = call.body().path("messages");
        for (JsonNode block : messages.get(messages.size() - 1).path("content")) {
            if ("tool_result".equals(block.path("type").asText())) {
                return ProviderDouble.Reply.text(block.path("content").asText());
            }
        }
        return ProviderDouble.Reply.text("ok");
    }
}
