package dev.stockade.runtime.channel.voice;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How a meeting ended, logged and said to whoever asks, so a missed call can be told apart from a finished one. */
public enum MeetingOutcome {
    /** Left on request ({@code leave_meeting}) or when the runtime stopped. */
    LEFT,
    /** The others ended the call or removed the agent. */
    HUNG_UP,
    /** Nobody admitted the agent within MEETING_ADMISSION_TIMEOUT_SECONDS of the join request. */
    NOT_ADMITTED,
    /** The host refused entry. */
    REFUSED,
    /** MEETING_TIMEOUT_MINUTES passed in the call; the agent left. */
    CAP_REACHED,
    /** The sign-in, the browser, the audio devices or the realtime session failed. */
    FAILED;

    /** The lower-case name logs and answers use. */
    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
