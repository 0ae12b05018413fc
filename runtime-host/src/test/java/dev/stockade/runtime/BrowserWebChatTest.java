package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.agent.DocumentKind;
import dev.stockade.runtime.agent.Documents;
import dev.stockade.testing.Await;
import java.io.File;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web chat in a real browser (headless Debian chromium through chromedriver) against a real runtime on the
 * provider double: a reply streams, a locked agent's write is refused with the spec's message, a subscription made
 * on the webhooks page delivers live into its thread, and markup in a reply renders as text. Screenshots are kept
 * under {@code target/browser-screenshots}. Without chromium the test skips locally and fails in CI.
 */
class BrowserWebChatTest extends OneThreadTest {
    private static final Path SHOTS = Path.of("target", "browser-screenshots");
    private static WebDriver browser;
    private WebDriverWait wait;
    private String name;

    @BeforeAll
    static void startBrowser() {
        for (String[] need : new String[][] {{"/usr/bin/chromium", "chromium"}, {"/usr/bin/chromedriver",
                "chromium-driver"}}) {
            Assumptions.assumeTrue(Files.isExecutable(Path.of(need[0])), () -> need[0] + " is missing: install it with "
                    + "`apt-get install " + need[1] + "` (.ci/run does)");
        }
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium")
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900");
        browser = new ChromeDriver(new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver")).build(), options);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @BeforeEach
    void prepare(TestInfo info) {
        wait = new WebDriverWait(browser, Await.BOUND);
        wait.ignoring(StaleElementReferenceException.class);
        name = info.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void screenshot() throws Exception {
        Files.createDirectories(SHOTS);
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private void openThread(String threadId) {
        browser.get(rt.url("/chat/" + URLEncoder.encode(threadId, StandardCharsets.UTF_8)));
        wait.until(d -> d.findElement(By.id("thread")).getAttribute("class").contains("live"));
    }

    private void send(String text) {
        browser.findElement(By.id("text")).sendKeys(text);
        browser.findElement(By.cssSelector("#composer button[type=submit]")).click();
    }

    private WebElement storedReply(String text) {
        return wait.until(d -> d.findElements(By.cssSelector("#messages li.msg.reply[data-id]")).stream()
                .filter(e -> e.getText().equals(text)).findFirst().orElse(null));
    }

    /**
     * Waits for the page a form's answer reloads ({@code location.reload()}): {@code html} in the new document, and
     * that document loaded, its scripts run. Its content shows while it still parses; a form found then may be
     * missing, and one clicked before app.js bound it would submit itself instead of calling the API.
     */
    private void reloadedWith(String html) {
        wait.until(d -> d.getPageSource().contains(html)
                && "complete".equals(((JavascriptExecutor) d).executeScript("return document.readyState")));
    }

    private void turnVerboseOn() {
        browser.findElement(By.id("verbose")).click();
        wait.until(d -> d.findElement(By.id("verbose")).isSelected()
                && d.findElement(By.id("thread")).getAttribute("class").contains("live"));
    }

    @Test
    void aReplyStreamsIntoTheThreadPieceByPieceBeforeItIsFinal() {
        openThread(thread);
        turnVerboseOn();
        provider.holdPieces().enqueue(ProviderDouble.Reply.pieces("Streaming ", "reply ", "done."));
        send("Tell me something");
        WebElement streaming = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("li.streaming")));
        wait.until(d -> "Streaming ".equals(streaming.getAttribute("textContent")));
        // The model has not finished: no stored reply yet, only the growing one.
        assertThat(browser.findElements(By.cssSelector("#messages li.reply[data-id]"))).isEmpty();
        provider.releasePiece();
        wait.until(d -> "Streaming reply ".equals(streaming.getAttribute("textContent")));
        provider.releasePiece();
        storedReply("Streaming reply done.");
        wait.until(d -> d.findElements(By.cssSelector("li.streaming, li.echo")).isEmpty());
        assertThat(browser.findElements(By.cssSelector("#messages li.user")).get(0).getText())
                .isEqualTo("Tell me something");
        wait.until(d -> d.findElement(By.id("context")).getText().matches("Context: \\d+%"));
    }

    @Test
    void withTheLockSwitchedOnAWriteIsRefusedWithWhatItWouldHaveChanged() throws Exception {
        Documents docs = new Documents(rt.runtime.store());
        docs.write(DocumentKind.SOUL, "curious");
        openThread(thread);
        turnVerboseOn();
        browser.findElement(By.id("lock")).click();
        Await.until("the lock set from the page", () -> locked(true));
        provider.enqueue(ProviderDouble.Reply.tool(null, "write_document", "{\"kind\":\"soul\",\"content\":\"grumpy\"}"),
                ProviderDouble.Reply.text("I cannot change my soul while locked."));
        send("Change your soul to grumpy");
        WebElement refusal = wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#messages li.tool-result.error")));
        assertThat(refusal.getText()).startsWith("Refused: this would have replaced the Soul document with 6 characters "
                + "of new text. The agent is locked in, so nothing was changed.")
                .contains("the lock toggle on the profile page");
        storedReply("I cannot change my soul while locked.");
        assertThat(docs.read(DocumentKind.SOUL)).isEqualTo("curious");
        browser.findElement(By.id("lock")).click();
        Await.until("the lock lifted from the page", () -> locked(false));
    }

    private boolean locked(boolean expected) {
        try {
            return rt.get("/agents/profile").json().path("lockedIn").asBoolean() == expected;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aSubscriptionMadeOnTheWebhooksPageDeliversLiveIntoItsThread() throws Exception {
        browser.get(rt.url("/webhooks"));
        browser.findElement(By.id("receiver")).click();
        Await.until("the receiver enabled from the page", () -> receiverOn());
        WebElement form = browser.findElement(By.id("new-subscription"));
        form.findElement(By.name("name")).sendKeys("Deploys");
        form.findElement(By.name("events")).sendKeys("push");
        new Select(form.findElement(By.name("deliverTo"))).selectByValue("chat");
        form.findElement(By.name("deliverOnly")).click();
        form.findElement(By.name("prompt")).sendKeys("{repository.full_name} by {pusher.name}: {commits.0.message}");
        browser.findElement(By.id("preview-button")).click();
        wait.until(d -> d.findElement(By.id("preview")).getText().equals("acme/shop by ada: Fix checkout"));
        form.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-name=deploys]")));

        assertThat(rt.post("/agents/webhooks/deploys", Payloads.GITHUB_PUSH, "X-GitHub-Event", "push").json()
                .path("status").asText()).isEqualTo("delivered");
        openThread("web:webhook:deploys");
        WebElement first = storedReply("acme/shop by ada: fix checkout rounding");
        String second = Payloads.GITHUB_PUSH.replace("fix checkout rounding", "ship the new cart");
        assertThat(rt.post("/agents/webhooks/deploys", second, "X-GitHub-Event", "push").status()).isEqualTo(200);
        storedReply("acme/shop by ada: ship the new cart");
        assertThat(first.isDisplayed()).as("the page was not reloaded").isTrue();
        assertThat(rt.post("/agents/webhooks/deploys", second, "X-GitHub-Event", "issues").json().path("status")
                .asText()).isEqualTo("ignored");
    }

    private boolean receiverOn() {
        try {
            return rt.get("/agents/webhook-receiver").json().path("enabled").asBoolean();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theProfileChannelsAndMemoryPagesSaveAndShowThroughTheirForms() throws Exception {
        browser.get(rt.url("/profile"));
        WebElement form = browser.findElement(By.id("profile"));
        form.findElement(By.name("heartbeatModelId")).sendKeys("claude-haiku-4-5");
        form.findElement(By.name("heartbeatIntervalMinutes")).clear();
        form.findElement(By.name("heartbeatIntervalMinutes")).sendKeys("30");
        form.findElement(By.name("timezone")).clear();
        form.findElement(By.name("timezone")).sendKeys("Mars/Olympus");
        form.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(d -> d.findElement(By.id("status")).getText().contains("IANA zone"));
        browser.findElement(By.cssSelector("#profile [name=timezone]")).clear();
        browser.findElement(By.cssSelector("#profile [name=timezone]")).sendKeys("Europe/Berlin");
        browser.findElement(By.cssSelector("#profile button[type=submit]")).click();
        Await.until("the profile saved from the page", () -> profileField("timezone").equals("Europe/Berlin"));
        assertThat(profileField("heartbeatIntervalMinutes")).isEqualTo("30");
        assertThat(profileField("heartbeatModelId")).isEqualTo("claude-haiku-4-5");

        browser.get(rt.url("/channels"));
        for (String id : List.of("C0FIRST1", "C0SECOND")) {
            browser.findElement(By.cssSelector("#link-destination [name=slackId]")).sendKeys(id);
            browser.findElement(By.cssSelector("#link-destination button[type=submit]")).click();
            reloadedWith("<code>" + id + "</code>");
        }
        browser.findElements(By.cssSelector("#destinations input[type=radio]")).get(1).click();
        Await.until("the second channel flagged main", () -> mainChannel("C0SECOND"));

        provider.enqueue(ProviderDouble.Reply.tool(null, "memory_write", "{\"content\":\"Ada prefers <b>tea</b>\"}"),
                ProviderDouble.Reply.text("Noted."));
        assertThat(rt.post("/agents/threads/" + thread + "/messages", "{\"text\":\"remember\"}").status())
                .isEqualTo(200);
        browser.get(rt.url("/memory"));
        browser.findElement(By.cssSelector("#memory-search [name=query]")).sendKeys("tea");
        browser.findElement(By.cssSelector("#memory-search button[type=submit]")).click();
        wait.until(d -> d.findElements(By.cssSelector("#results li")).stream()
                .anyMatch(e -> e.getText().equals("Ada prefers <b>tea</b>")));
    }

    private String profileField(String field) {
        try {
            return rt.get("/agents/profile").json().path(field).asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean mainChannel(String slackId) {
        try {
            return new dev.stockade.runtime.channel.SlackDestinations(rt.runtime.store()).broadcastTarget().slackId()
                    .equals(slackId);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void markupInARepliedOrTypedTextRendersAsText() {
        String injected = "<img src=x onerror=\"document.title='pwned'\"><b>bold</b>";
        openThread(thread);
        provider.enqueue(ProviderDouble.Reply.text("Echo: " + injected));
        send("Say " + injected);
        storedReply("Echo: " + injected);
        // Verbose is off: the final step arrives whole on the turn's stream and again, stored, on the live view;
        // the page shows it once.
        wait.until(d -> d.findElements(By.cssSelector("li.echo, li.streaming")).isEmpty());
        for (int pass = 0; pass < 2; pass++) { // live, then server-rendered after a reload
            assertThat(browser.findElements(By.cssSelector("#messages li"))).hasSize(2);
            assertThat(browser.findElements(By.cssSelector("#messages img, #messages b"))).isEmpty();
            List<String> texts = browser.findElements(By.cssSelector("#messages li")).stream().map(WebElement::getText)
                    .toList();
            assertThat(texts).contains("Say " + injected, "Echo: " + injected);
            assertThat(browser.getTitle()).isNotEqualTo("pwned");
            browser.navigate().refresh();
            wait.until(d -> d.findElement(By.id("thread")).getAttribute("class").contains("live"));
        }
        assertThat(((JavascriptExecutor) browser).executeScript("return document.title")).isNotEqualTo("pwned");
    }
}
