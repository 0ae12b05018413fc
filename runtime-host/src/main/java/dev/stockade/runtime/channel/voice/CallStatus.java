package dev.stockade.runtime.channel.voice;

/**
 * What the voice channel is doing, and how the last call ended, so that a call that failed after the join request
 * (a refused sign-in, a missed admission) is visible to the person and the agent who asked for it.
 *
 * @param state {@code idle}, {@code waiting} (asked to join, not yet admitted) or {@code in_call}
 * @param url the meeting in progress, or {@code null} when idle
 * @param lastOutcome how the last call ended, or {@code null} before the first one ends
 * @param lastDetail why the last call failed, in words that name no secret, or {@code null}
 */
public record CallStatus(String state, String url, MeetingOutcome lastOutcome, String lastDetail) {
    /** One line for the agent's tool result. */
    String said() {
        String now = switch (state) {
            case "waiting" -> "Waiting to be admitted to " + url + ".";
            case "in_call" -> "In the call " + url + ".";
            default -> "Not in a meeting.";
        };
        if (lastOutcome == null) {
            return now;
        }
        return now + " The last call ended: " + lastOutcome.wire() + (lastDetail == null ? "" : " (" + lastDetail
                + ")") + ".";
    }
}
