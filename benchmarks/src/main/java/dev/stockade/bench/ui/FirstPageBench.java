package dev.stockade.bench.ui;

import dev.stockade.bench.sandbox.BenchPlatform;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin UI's first page, usable: from the start of navigation to {@code /ui/} until the organizations view has
 * drawn its form (the shell, its modules, and the API calls it makes), in headless Debian chromium against the
 * platform jar on its embedded database. The baseline in the same run: a server-rendered page with no script (the
 * sign-in provider's account form), navigation start to its load event. The first round has a cold cache; the rest
 * revalidate the assets by ETag.
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.ui.FirstPageBench [rounds]}
 */
public final class FirstPageBench {
    private static final String EMAIL = "bench@example.com";
    private static final String PASSWORD = "the first page in under a second";

    private FirstPageBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int port = 18_000 + (int) (ProcessHandle.current().pid() % 1000);
        try (BenchPlatform platform = BenchPlatform.start(port, Map.of())) {
            createAccount(platform);
            ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium")
                    .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage");
            WebDriver browser = new ChromeDriver(new ChromeDriverService.Builder()
                    .usingDriverExecutable(new java.io.File("/usr/bin/chromedriver")).build(), options);
            try {
                signIn(browser, platform.base);
                JavascriptExecutor js = (JavascriptExecutor) browser;
                List<Double> ui = new ArrayList<>();
                List<Double> plain = new ArrayList<>();
                for (int i = 0; i < rounds; i++) {
                    browser.get(platform.base + "/ui/");
                    ui.add(((Number) js.executeAsyncScript("const done = arguments[arguments.length - 1];"
                            + "(function look() { document.querySelector('#create-org') ? done(performance.now())"
                            + " : requestAnimationFrame(look); })();")).doubleValue());
                    browser.get(platform.base + "/signin/accounts");
                    plain.add(((Number) js.executeScript("return performance.getEntriesByType('navigation')[0]"
                            + ".loadEventEnd;")).doubleValue());
                }
                System.out.printf("admin UI /ui/ usable (ms): first %.0f; then %s%n", ui.get(0), summary(ui.subList(1, ui.size())));
                System.out.printf("server-rendered page, load event (ms): first %.0f; then %s%n", plain.get(0),
                        summary(plain.subList(1, plain.size())));
            } finally {
                browser.quit();
            }
        }
    }

    private static String summary(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return String.format("p50 %.0f, p90 %.0f, max %.0f over %d", sorted.get(sorted.size() / 2),
                sorted.get((int) Math.ceil(sorted.size() * 0.9) - 1), sorted.get(sorted.size() - 1), sorted.size());
    }

    /** The operator's account form, proven with the owner token, as docs/signin.md describes. */
    private static void createAccount(BenchPlatform platform) throws Exception {
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String page = http.send(HttpRequest.newBuilder(URI.create(platform.base + "/signin/accounts")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher csrf = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(page);
        if (!csrf.find()) {
            throw new IllegalStateException("no account form at /signin/accounts");
        }
        String form = "csrf=" + enc(csrf.group(1)) + "&ownerToken=" + enc(platform.owner) + "&email=" + enc(EMAIL)
                + "&name=Bench&password=" + enc(PASSWORD);
        int status = http.send(HttpRequest.newBuilder(URI.create(platform.base + "/signin/accounts"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
        if (status != 201) {
            throw new IllegalStateException("the account was not created: " + status);
        }
    }

    private static void signIn(WebDriver browser, String base) {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
        browser.get(base + "/");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("password")));
        browser.findElement(By.id("email")).sendKeys(EMAIL);
        browser.findElement(By.id("password")).sendKeys(PASSWORD);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("who")));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
