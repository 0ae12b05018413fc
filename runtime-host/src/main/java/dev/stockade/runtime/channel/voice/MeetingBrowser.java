package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.config.ChildEnvironment;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.remote.RemoteWebDriver;

/**
 * A real Chromium in the meeting: chromedriver is started by the runtime with the child environment (so neither the
 * driver nor the browser sees a key of the runtime) plus the PulseAudio devices, and driven through Selenium. The
 * profile lives under the data directory so that a signed-in meeting account stays signed in.
 */
final class MeetingBrowser implements AutoCloseable {
    /** The buttons that ask to enter a call, as the meeting page labels them. */
    static final By JOIN = By.xpath("//button[normalize-space(.)='Ask to join' or normalize-space(.)='Join now']");
    /** Present only while the account is in the call. */
    static final By IN_CALL = By.cssSelector("[aria-label='Leave call']");
    /** What the page says, visibly, when the host refuses entry. */
    static final String REFUSED = "You can't join this call";
    private static final Duration DRIVER_START = Duration.ofSeconds(20);

    private final Process driverProcess;
    private final RemoteWebDriver driver;

    private MeetingBrowser(Process driverProcess, RemoteWebDriver driver) {
        this.driverProcess = driverProcess;
        this.driver = driver;
    }

    /** Starts chromedriver and a headless Chromium whose sound goes through {@code audio}. */
    static MeetingBrowser start(VoiceToolchain tools, ChildEnvironment env, Map<String, String> audio, Path profile)
            throws VoiceRefused {
        int port = freePort();
        Process p;
        try {
            Files.createDirectories(profile);
            ProcessBuilder b = env.processBuilder(List.of(tools.chromedriver().toString(), "--port=" + port))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
            b.environment().putAll(audio);
            withoutProxyCredentials(b.environment());
            p = b.start();
        } catch (IOException e) {
            throw new VoiceRefused("could not start chromedriver: " + e.getClass().getSimpleName());
        }
        try {
            URL url = awaitDriver(port);
            return new MeetingBrowser(p, new RemoteWebDriver(url, options(tools, profile)));
        } catch (VoiceRefused | RuntimeException e) {
            p.destroyForcibly();
            throw e instanceof VoiceRefused v ? v : new VoiceRefused("the browser did not start: "
                    + e.getClass().getSimpleName());
        }
    }

    /**
     * Strips the user information from the proxy variables the browser inherits: Chromium takes no credentials from
     * them, so a proxy password there would only be a secret in a child's environment. Everything up to the last
     * {@code @} goes, so an unescaped {@code @} or {@code /} in the password never leaves a part behind.
     */
    static void withoutProxyCredentials(Map<String, String> environment) {
        for (String name : List.of("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY",
                "all_proxy")) {
            environment.computeIfPresent(name, (k, v) -> v.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)?\\S*@",
                    "$1"));
        }
    }

    private static ChromeOptions options(VoiceToolchain tools, Path profile) {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(tools.chromium().toFile());
        List<String> args = new ArrayList<>(List.of("--headless=new", "--user-data-dir=" + profile.toAbsolutePath(),
                // Grants the page the microphone without a prompt; the device itself is the PulseAudio source.
                "--use-fake-ui-for-media-stream", "--autoplay-policy=no-user-gesture-required",
                "--no-first-run", "--disable-dev-shm-usage"));
        if ("root".equals(System.getProperty("user.name"))) {
            args.add("--no-sandbox"); // Chromium refuses to start its sandbox as root
        }
        o.addArguments(args);
        return o;
    }

    private static URL awaitDriver(int port) throws VoiceRefused {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        URI status = URI.create("http://127.0.0.1:" + port + "/status");
        Instant deadline = Instant.now().plus(DRIVER_START);
        while (Instant.now().isBefore(deadline)) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(status).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return URI.create("http://127.0.0.1:" + port).toURL();
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            Meeting.pause(Duration.ofMillis(100));
        }
        throw new VoiceRefused("chromedriver did not answer within " + DRIVER_START.toSeconds() + " s");
    }

    private static int freePort() throws VoiceRefused {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new VoiceRefused("no free local port for chromedriver");
        }
    }

    /**
     * Opens the meeting; when it sends the browser to the account's sign-in page, signs in with {@code account} and
     * comes back to the meeting (a profile signed in before goes straight to the meeting).
     */
    void open(URI meeting, MeetingAccount account) throws VoiceRefused {
        try {
            driver.get(meeting.toString());
            if (AccountSignIn.asked(driver)) {
                new AccountSignIn(driver, account).complete(JOIN);
            }
        } catch (WebDriverException e) {
            throw new VoiceRefused("the browser could not open the meeting: " + e.getClass().getSimpleName());
        }
    }

    /** Asks to join the open meeting; refused when the page offers no join button. */
    void askToJoin() throws VoiceRefused {
        try {
            List<WebElement> join = driver.findElements(JOIN);
            if (join.isEmpty()) {
                throw new VoiceRefused("the meeting page offers no \"Ask to join\" or \"Join now\" button");
            }
            join.get(0).click();
        } catch (WebDriverException e) {
            throw new VoiceRefused("the browser could not ask to join: " + e.getClass().getSimpleName());
        }
    }

    /** Whether the account is in the call now. */
    boolean inCall() {
        return !driver.findElements(IN_CALL).isEmpty();
    }

    /** Whether the host refused entry. */
    boolean refused() {
        // Visible text only: the words may also sit in the page's scripts.
        return driver.findElements(By.tagName("body")).stream().anyMatch(b -> b.getText().contains(REFUSED));
    }

    /** Presses the leave button if the call is still on, so the others see the agent go. */
    void leave() {
        try {
            driver.findElements(IN_CALL).forEach(WebElement::click);
        } catch (WebDriverException e) {
            // the page went away already; quitting below still ends the session
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } catch (WebDriverException e) {
            // the browser is gone already
        } finally {
            driverProcess.destroy();
        }
    }
}
