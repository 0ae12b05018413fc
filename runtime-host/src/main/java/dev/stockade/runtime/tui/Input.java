package dev.stockade.runtime.tui;

import java.util.Locale;
import java.util.Optional;

/**
 * One line typed at the prompt, read into what it asks for: a message for the agent, or a slash command with its
 * argument checked. A mistake becomes {@link Invalid} with a one-line reason, never a request to the runtime.
 */
public sealed interface Input {
    /** A message: the agent runs a turn over it. */
    record Say(String text) implements Input {
    }

    /** An empty line: nothing to do. */
    record Blank() implements Input {
    }

    /** A command that takes no argument: /threads, /new, /compact, /help, /quit. */
    record Plain(Command command) implements Input {
    }

    /** /resume with a number of the last /threads list, an id, or a prefix of one. */
    record Resume(String selector) implements Input {
    }

    /** /model, /heartbeat-model or /cron-model: show ({@code change} empty) or set the override. */
    record Model(Command slot, Optional<ModelChange> change) implements Input {
    }

    /** /lock or /verbose: show ({@code on} empty) or switch. */
    record Switch(Command setting, Optional<Boolean> on) implements Input {
    }

    /** A line that names no command, or a command with an argument it does not take. */
    record Invalid(String reason) implements Input {
    }

    /** A new model override: a model id, or {@code null} to fall back to the environment's default. */
    record ModelChange(String model) {
    }

    /** Reads one line. A line that starts with {@code /} is a command; the runtime reads such text as one too. */
    static Input parse(String line) {
        String text = line.strip();
        if (text.isEmpty()) {
            return new Blank();
        }
        if (!text.startsWith("/")) {
            return new Say(text);
        }
        String[] parts = text.split("\\s+", 2);
        String argument = parts.length > 1 ? parts[1].strip() : "";
        Optional<Command> command = Command.of(parts[0]);
        if (command.isEmpty()) {
            return new Invalid("unknown command `" + clip(parts[0]) + "`; /help lists the commands");
        }
        Command c = command.get();
        return switch (c) {
            case RESUME -> argument.isEmpty() || argument.contains(" ")
                    ? new Invalid("`/resume` takes one thread: a number from /threads, or an id")
                    : new Resume(argument);
            case MODEL, HEARTBEAT_MODEL, CRON_MODEL -> new Model(c, argument.isEmpty() ? Optional.empty()
                    : Optional.of(new ModelChange(argument.equals("default") ? null : argument)));
            case LOCK, VERBOSE -> onOff(c, argument);
            default -> argument.isEmpty() ? new Plain(c)
                    : new Invalid("`" + c.word() + "` takes no argument");
        };
    }

    private static Input onOff(Command c, String argument) {
        return switch (argument.toLowerCase(Locale.ROOT)) {
            case "" -> new Switch(c, Optional.empty());
            case "on" -> new Switch(c, Optional.of(true));
            case "off" -> new Switch(c, Optional.of(false));
            default -> new Invalid("`" + c.word() + "` takes `on` or `off`, not `" + clip(argument) + "`");
        };
    }

    private static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
