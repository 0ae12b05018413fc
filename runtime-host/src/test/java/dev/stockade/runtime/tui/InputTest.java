package dev.stockade.runtime.tui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a typed line is read: messages, each command and its argument, and the mistakes refused before any request. */
class InputTest {
    @Test
    void aLineWithoutASlashIsAMessageAsTyped() {
        assertThat(Input.parse("  don't forget!! \"quotes\" \\ too ")).isEqualTo(
                new Input.Say("don't forget!! \"quotes\" \\ too"));
        assertThat(Input.parse("   ")).isEqualTo(new Input.Blank());
        assertThat(Input.parse("")).isEqualTo(new Input.Blank());
    }

    @Test
    void commandsWithoutArguments() {
        assertThat(Input.parse("/threads")).isEqualTo(new Input.Plain(Command.THREADS));
        assertThat(Input.parse(" /new ")).isEqualTo(new Input.Plain(Command.NEW));
        assertThat(Input.parse("/compact")).isEqualTo(new Input.Plain(Command.COMPACT));
        assertThat(Input.parse("/help")).isEqualTo(new Input.Plain(Command.HELP));
        assertThat(Input.parse("/quit")).isEqualTo(new Input.Plain(Command.QUIT));
        assertThat(Input.parse("/threads all")).isEqualTo(new Input.Invalid("`/threads` takes no argument"));
    }

    @Test
    void resumeTakesOneThread() {
        assertThat(Input.parse("/resume 2")).isEqualTo(new Input.Resume("2"));
        assertThat(Input.parse("/resume 7db740a1-2b")).isEqualTo(new Input.Resume("7db740a1-2b"));
        assertThat(Input.parse("/resume")).isInstanceOf(Input.Invalid.class);
        assertThat(Input.parse("/resume 1 2")).isInstanceOf(Input.Invalid.class);
    }

    @Test
    void modelCommandsShowSetOrFallBackToTheDefault() {
        assertThat(Input.parse("/model")).isEqualTo(new Input.Model(Command.MODEL, Optional.empty()));
        assertThat(Input.parse("/heartbeat-model claude-haiku-4-5")).isEqualTo(new Input.Model(Command.HEARTBEAT_MODEL,
                Optional.of(new Input.ModelChange("claude-haiku-4-5"))));
        assertThat(Input.parse("/cron-model default")).isEqualTo(new Input.Model(Command.CRON_MODEL,
                Optional.of(new Input.ModelChange(null))));
    }

    @Test
    void lockAndVerboseTakeOnOrOff() {
        assertThat(Input.parse("/lock")).isEqualTo(new Input.Switch(Command.LOCK, Optional.empty()));
        assertThat(Input.parse("/lock on")).isEqualTo(new Input.Switch(Command.LOCK, Optional.of(true)));
        assertThat(Input.parse("/verbose OFF")).isEqualTo(new Input.Switch(Command.VERBOSE, Optional.of(false)));
        assertThat(Input.parse("/verbose yes")).isEqualTo(
                new Input.Invalid("`/verbose` takes `on` or `off`, not `yes`"));
    }

    @Test
    void anUnknownCommandIsRefusedWithAHint() {
        assertThat(Input.parse("/frobnicate now")).isEqualTo(
                new Input.Invalid("unknown command `/frobnicate`; /help lists the commands"));
        assertThat(Input.parse("/" + "x".repeat(100))).isEqualTo(new Input.Invalid("unknown command `/"
                + "x".repeat(39) + "…`; /help lists the commands"));
    }

    @Test
    void everyCommandIsKnownByItsWord() {
        for (Command c : Command.values()) {
            assertThat(Command.of(c.word())).hasValue(c);
            assertThat(Input.parse(c.word() + (c == Command.RESUME ? " 1" : ""))).isNotInstanceOf(Input.Invalid.class).isNotInstanceOf(Input.Say.class);
        }
    }
}
