package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.observe.Log;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;

/**
 * Signs the meeting account in when a meeting sends the browser to the account provider's sign-in page: the email
 * step, then the password step, as a person would, with the page's own fields and "Next" buttons. A wrong password, an
 * unknown account or a "verify it's you" challenge ends the attempt with the cause; the password is typed into its
 * field and never repeated. Success lives on in the browser profile, so the next call skips all of this.
 */
final class AccountSignIn {
    static final By EMAIL = By.cssSelector("input[type='email']");
    static final By PASSWORD = By.cssSelector("input[type='password']");
    static final By NEXT = By.xpath("//button[normalize-space(.)='Next']");
    /** Visible words of the provider's pages that end an unattended sign-in. */
    static final List<String> CHALLENGE = List.of("Verify it's you", "Verify it\u2019s you", "2-Step Verification");
    static final String WRONG_PASSWORD = "Wrong password";
    static final String NO_ACCOUNT = "Couldn't find your";
    /** How long each step of the provider's pages may take to answer. */
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final Duration LOOK = Duration.ofMillis(200);

    private final WebDriver driver;
    private final MeetingAccount account;

    AccountSignIn(WebDriver driver, MeetingAccount account) {
        this.driver = driver;
        this.account = account;
    }

    /** Whether the browser stands on a sign-in page (the email or password step). */
    static boolean asked(WebDriver driver) {
        return !driver.findElements(EMAIL).isEmpty() || !driver.findElements(PASSWORD).isEmpty();
    }

    /** Completes the sign-in; returns once the page has left the sign-in flow for the meeting ({@code done}). */
    void complete(By done) throws VoiceRefused {
        if (!account.complete()) {
            throw new VoiceRefused("the meeting asks the account to sign in, and GOOGLE_BOT_EMAIL and "
                    + "GOOGLE_BOT_PASSWORD are not both set");
        }
        Log.info("voice.sign_in", "step", "email");
        if (!driver.findElements(EMAIL).isEmpty()) {
            type(EMAIL, account.email());
            await(PASSWORD);
        }
        Log.info("voice.sign_in", "step", "password");
        type(PASSWORD, account.password());
        await(done);
        Log.info("voice.sign_in", "step", "done");
    }

    private void type(By field, String text) throws VoiceRefused {
        try {
            WebElement f = driver.findElement(field);
            f.clear();
            f.sendKeys(text);
            driver.findElement(NEXT).click();
        } catch (WebDriverException e) {
            throw new VoiceRefused("the sign-in page changed under the browser: " + e.getClass().getSimpleName());
        }
    }

    /** Waits for {@code next} to appear, failing at once on a page that ends an unattended sign-in. */
    private void await(By next) throws VoiceRefused {
        Instant deadline = Instant.now().plus(STEP);
        while (Instant.now().isBefore(deadline)) {
            Optional<String> stop = stopped();
            if (stop.isPresent()) {
                Log.warn("voice.sign_in_refused", "reason", stop.get());
                throw new VoiceRefused(stop.get());
            }
            if (!driver.findElements(next).isEmpty()) {
                return;
            }
            Meeting.pause(LOOK);
        }
        throw new VoiceRefused("the sign-in of the meeting account `" + account.email() + "` did not go on within "
                + STEP.toSeconds() + " s");
    }

    /** What the provider's page says that a robot cannot get past, as a refusal naming the cause. */
    private Optional<String> stopped() {
        String text;
        try {
            text = driver.findElements(By.tagName("body")).stream().map(WebElement::getText).findFirst().orElse("");
        } catch (WebDriverException e) {
            return Optional.empty(); // the page is being replaced; look again
        }
        String who = "the meeting account `" + account.email() + "`";
        if (CHALLENGE.stream().anyMatch(text::contains)) {
            return Optional.of(who + " must verify it's you (a phone, security-key or other challenge): a person has "
                    + "to sign it in once in the meeting profile under the data directory");
        }
        if (text.contains(WRONG_PASSWORD)) {
            return Optional.of(who + " could not sign in: wrong password (check GOOGLE_BOT_PASSWORD)");
        }
        if (text.contains(NO_ACCOUNT)) {
            return Optional.of(who + " does not exist at the sign-in page (check GOOGLE_BOT_EMAIL)");
        }
        return Optional.empty();
    }
}
