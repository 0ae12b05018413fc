package dev.stockade.api.support;

import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** Debian's chromium, headless, driven by Debian's chromedriver: the real browser of the sign-in and UI tests. */
public final class Chromium {
    private Chromium() {
    }

    /** A new headless browser; the test skips locally (and fails in CI) when chromium is not installed. */
    public static ChromeDriver headless(String... extraArguments) {
        Requires.executable("/usr/bin/chromium", "chromium");
        Requires.executable("/usr/bin/chromedriver", "chromium-driver");
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium")
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage").addArguments(extraArguments);
        return new ChromeDriver(new ChromeDriverService.Builder()
                .usingDriverExecutable(new java.io.File("/usr/bin/chromedriver")).build(), options);
    }
}
