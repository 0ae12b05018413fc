package dev.stockade.runtime.channel.voice;

/** A voice call that cannot be placed or continued; the message is said to the caller as is and names no secret. */
public final class VoiceRefused extends Exception {
    private static final long serialVersionUID = 1L;

    public VoiceRefused(String message) {
        super(message, null, false, false);
    }
}
