package dev.stockade.runtime.channel.slack;

/**
 * The Slack adapter could not start: a token of the wrong kind, a token Slack rejects, another app's token, or
 * Slack out of reach. The message says which variable to fix and never contains a token.
 */
public final class SlackRefused extends Exception {
    public SlackRefused(String message) {
        super(message);
    }
}
