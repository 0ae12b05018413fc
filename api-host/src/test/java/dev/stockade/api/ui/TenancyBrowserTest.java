package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import java.util.List;
import java.util.stream.StreamSupport;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * Steps the tenancy views' browser tests share: creating an organization through the landing view, moving by the
 * keyboard alone, and reading tables as the person sees them. The owner token (an administrator of every
 * organization) checks through REST what the UI did.
 */
abstract class TenancyBrowserTest extends UiBrowserTest {
    /** Creates an organization through the landing view's form and returns its id, from the address it lands on. */
    protected String createOrgInUi(String name) {
        open("/", "Organizations");
        browser.findElement(By.cssSelector("#create-org input[name=name]")).sendKeys(name, Keys.ENTER);
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/orgs/[0-9a-f-]{36}$"));
        waitForHeading(name);
        return browser.getCurrentUrl().replaceAll(".*/ui/orgs/", "");
    }

    /** Moves the focus with Tab alone until it reaches the element {@code css} names; fails if it never does. */
    protected WebElement tabTo(String css) {
        WebElement target = waitFor(css);
        for (int i = 0; i < 80 && !target.equals(browser.switchTo().activeElement()); i++) {
            new Actions(browser).sendKeys(Keys.TAB).perform();
        }
        assertThat(browser.switchTo().activeElement()).as("Tab reaches " + css).isEqualTo(target);
        return target;
    }

    /** Types into whatever has the focus, as a keyboard does. */
    protected void type(CharSequence... keys) {
        new Actions(browser).sendKeys(keys).perform();
    }

    /** The text of each cell of each body row of the table inside {@code css}. */
    protected List<List<String>> rows(String css) {
        return browser.findElements(By.cssSelector(css + " tbody tr")).stream()
                .map(tr -> tr.findElements(By.tagName("td")).stream().map(WebElement::getText).toList()).toList();
    }

    protected String text(String css) {
        return waitFor(css).getText();
    }

    /** The values of {@code field} of a list answer's items. */
    protected static List<String> field(Http.Response list, String field) {
        assertThat(list.status()).as(list.raw()).isEqualTo(200);
        return StreamSupport.stream(list.body().path("items").spliterator(), false)
                .map(item -> item.path(field).asText()).toList();
    }
}
