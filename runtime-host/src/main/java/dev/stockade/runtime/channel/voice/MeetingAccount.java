package dev.stockade.runtime.channel.voice;

/**
 * The account the agent signs into for meetings ({@code GOOGLE_BOT_EMAIL}, {@code GOOGLE_BOT_PASSWORD}). The password
 * is typed into the sign-in page and nowhere else: this record prints without it, and no refusal names it.
 *
 * @param email the account's address, or {@code null} when unset
 * @param password its plain-text password, or {@code null} when unset
 */
public record MeetingAccount(String email, String password) {
    /** No account: a meeting that asks to sign in is refused. */
    public static final MeetingAccount NONE = new MeetingAccount(null, null);

    /** Whether both halves are set, so a sign-in page can be completed unattended. */
    public boolean complete() {
        return email != null && !email.isBlank() && password != null && !password.isEmpty();
    }

    @Override
    public String toString() {
        return "MeetingAccount[" + (email == null ? "unset" : email) + ", password " + (password == null ? "unset"
                : "******") + "]";
    }
}
