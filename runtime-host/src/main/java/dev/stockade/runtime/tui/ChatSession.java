package dev.stockade.runtime.tui;

import dev.stockade.runtime.tui.AgentClient.Profile;
import dev.stockade.runtime.tui.AgentClient.StoredMessage;
import dev.stockade.runtime.tui.AgentClient.ThreadSummary;
import dev.stockade.runtime.tui.Screen.Tone;
import java.util.ArrayList;
import java.util.List;

/**
 * What one terminal conversation holds (the current thread, the last /threads list) and what each input does,
 * through the runtime's routes only. A new thread is created by its first message, titled after it, so that
 * opening and leaving the terminal leaves no empty thread behind.
 */
final class ChatSession {
    private static final int TITLE_CHARS = 60;
    private static final int RESUME_SHOWN = 10;
    private final AgentClient client;
    private final Screen screen;
    private final ReplyView replies;
    private ThreadSummary thread;
    private List<ThreadSummary> listed = List.of();
    private volatile ReplyStream following;

    ChatSession(AgentClient client, Screen screen) {
        this.client = client;
        this.screen = screen;
        this.replies = new ReplyView(screen);
    }

    /** Ctrl-C: stops following a streaming reply; at other times it does nothing here. */
    void interrupt() {
        ReplyStream s = following;
        if (s != null) {
            s.detach();
        }
    }

    /** Carries out {@code input}; false when the person asked to leave. */
    boolean handle(Input input) throws InterruptedException {
        try {
            return carryOut(input);
        } catch (RuntimeUnavailable e) {
            screen.line(Tone.ERROR, "! " + e.getMessage());
            return true;
        }
    }

    private boolean carryOut(Input input) throws RuntimeUnavailable, InterruptedException {
        if (input instanceof Input.Say say) {
            say(say.text());
        } else if (input instanceof Input.Plain plain) {
            return plain(plain.command());
        } else if (input instanceof Input.Resume r) {
            resume(r.selector());
        } else if (input instanceof Input.Model m) {
            model(m);
        } else if (input instanceof Input.Switch s) {
            setting(s);
        } else if (input instanceof Input.Invalid invalid) {
            screen.line(Tone.ERROR, "! " + invalid.reason());
        }
        return true;
    }

    private boolean plain(Command c) throws RuntimeUnavailable {
        switch (c) {
            case THREADS -> threads();
            case NEW -> {
                thread = null;
                screen.line(Tone.DIM, "new thread: your next message starts it");
            }
            case COMPACT -> {
                if (thread == null) {
                    screen.line(Tone.NOTICE, "nothing to compact: this thread has no message yet");
                } else {
                    screen.line(Tone.NOTICE, client.compact(thread.id())
                            ? "older messages of this thread were summarised"
                            : "nothing to compact: the thread is within its verbatim tail");
                }
            }
            case HELP -> help();
            case QUIT -> {
                return false;
            }
            default -> throw new IllegalStateException("not a plain command: " + c);
        }
        return true;
    }

    private void say(String text) throws RuntimeUnavailable, InterruptedException {
        if (thread == null) {
            String title = text.lines().findFirst().orElse(text);
            title = title.length() <= TITLE_CHARS ? title : title.substring(0, TITLE_CHARS - 1) + "…";
            thread = new ThreadSummary(client.createThread(title), title);
        }
        ReplyStream s = client.say(thread.id(), text);
        following = s;
        try {
            replies.follow(s);
        } finally {
            following = null;
        }
    }

    private void threads() throws RuntimeUnavailable {
        listed = client.threads();
        if (listed.isEmpty()) {
            screen.line(Tone.DIM, "no threads yet: type a message to start one");
            return;
        }
        int w = screen.width();
        for (int i = 0; i < listed.size(); i++) {
            ThreadSummary t = listed.get(i);
            String lead = (thread != null && thread.id().equals(t.id()) ? "*" : " ") + String.format("%3d  ", i + 1);
            String id = "  " + Screen.clip(t.id().substring(0, Math.min(8, t.id().length())), 8);
            boolean roomForId = w - Screen.columns(lead) - id.length() >= 12;
            int titleColumns = Math.max(1, w - Screen.columns(lead) - (roomForId ? id.length() : 0) - 1);
            screen.line(Tone.PLAIN, lead + Screen.clip(t.title(), titleColumns) + (roomForId ? id : ""));
        }
    }

    private void resume(String selector) throws RuntimeUnavailable {
        ThreadSummary found = find(selector);
        if (found == null) {
            return;
        }
        thread = found;
        screen.rule(found.title());
        List<StoredMessage> shown = new ArrayList<>();
        for (StoredMessage m : client.messages(found.id())) {
            if (!m.internal() && List.of("user", "assistant", "notice").contains(m.role())) {
                shown.add(m);
            }
        }
        for (StoredMessage m : shown.subList(Math.max(0, shown.size() - RESUME_SHOWN), shown.size())) {
            switch (m.role()) {
                case "user" -> screen.line(Tone.DIM, "> " + m.content());
                case "notice" -> screen.line(Tone.NOTICE, m.content());
                default -> screen.line(Tone.PLAIN, m.content());
            }
        }
    }

    /** A number of the last /threads list, else a full id or an id prefix of at least 4 characters. */
    private ThreadSummary find(String selector) throws RuntimeUnavailable {
        if (selector.matches("[0-9]{1,6}")) {
            int n = Integer.parseInt(selector);
            if (listed.isEmpty()) {
                listed = client.threads();
            }
            if (n >= 1 && n <= listed.size()) {
                return listed.get(n - 1);
            }
        }
        List<ThreadSummary> matches = new ArrayList<>();
        for (ThreadSummary t : client.threads()) {
            if (t.id().equals(selector)) {
                return t;
            }
            if (selector.length() >= 4 && t.id().startsWith(selector)) {
                matches.add(t);
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        screen.line(Tone.ERROR, matches.isEmpty() ? "! no thread `" + Screen.clip(selector, 40) + "`; /threads lists them"
                : "! `" + selector + "` starts " + matches.size() + " thread ids; give more of the id");
        return null;
    }

    private void model(Input.Model m) throws RuntimeUnavailable {
        String label = switch (m.slot()) {
            case HEARTBEAT_MODEL -> "heartbeat model";
            case CRON_MODEL -> "cron model";
            default -> "main model";
        };
        Profile p;
        if (m.change().isEmpty()) {
            p = client.profile();
        } else {
            if (thread == null) {
                // The runtime takes its model commands at a thread's message route; the thread becomes this one.
                thread = new ThreadSummary(client.createThread("New chat"), "New chat");
            }
            p = client.setModel(thread.id(), m.slot(), m.change().get().model());
        }
        String model = p.model(m.slot());
        screen.line(Tone.NOTICE, label + ": " + (model == null ? "the environment's default" : model));
    }

    private void setting(Input.Switch s) throws RuntimeUnavailable {
        boolean lock = s.setting() == Command.LOCK;
        Profile p = s.on().isEmpty() ? client.profile()
                : lock ? client.setLocked(s.on().get()) : client.setVerbose(s.on().get());
        if (lock) {
            screen.line(Tone.NOTICE, p.lockedIn() ? "lock: on (document and memory writes are refused)"
                    : "lock: off");
        } else {
            screen.line(Tone.NOTICE, p.verbose() ? "verbose: on (every step streams as it is written)"
                    : "verbose: off (only the final step of a turn is shown)");
        }
    }

    private void help() {
        for (Command c : Command.values()) {
            String usage = c.word() + (c.arguments().isEmpty() ? "" : " " + c.arguments());
            screen.line(Tone.PLAIN, String.format("  %-32s %s", usage, c.help()));
        }
    }
}
