package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.DocumentKind;
import dev.stockade.runtime.agent.Documents;
import dev.stockade.runtime.agent.PublicLinks;
import dev.stockade.runtime.channel.SlackDestinations;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The web UI's pages and endpoints over the real server: escaping, the CSP, relative URLs, profile, previews, channels. */
class WebUiTest extends OneThreadTest {
    static final String INJECTED = "<img src=x onerror=\"alert(1)\"><script>alert(2)</script>";
    static final List<String> PAGES = List.of("/", "/profile", "/documents", "/memory", "/webhooks", "/channels");

    private HttpResponse<String> page(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(rt.url(path))).timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return TestRuntime.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyPageIsHtmlUnderAStrictPolicyWithoutInlineScriptAndOnlyRelativeUrls() throws Exception {
        for (String path : append(PAGES, "/chat/" + thread)) {
            HttpResponse<String> r = page(path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
            assertThat(r.headers().firstValue("content-security-policy").orElseThrow()).startsWith("default-src 'self';")
                    .doesNotContain("unsafe-inline");
            Matcher scripts = Pattern.compile("<script[^>]*>(.*?)</script>").matcher(r.body());
            while (scripts.find()) {
                assertThat(scripts.group(1)).as("inline script on " + path).isEmpty();
                assertThat(scripts.group()).contains("src=\"static/");
            }
            Matcher urls = Pattern.compile("(?:href|src|data-api)=\"(?:[A-Z]+ )?([^\"]*)\"").matcher(r.body());
            while (urls.find()) {
                assertThat(urls.group(1)).as("a URL on " + path).doesNotStartWith("/").doesNotContain("://");
            }
            assertThat(r.body()).contains("<base href=\"" + (path.startsWith("/chat/") ? "../" : "./") + "\">");
        }
        for (String asset : List.of("app.js", "chat.js", "style.css")) {
            assertThat(page("/static/" + asset).statusCode()).isEqualTo(200);
        }
        assertThat(page("/static/..%2Fschema-v1.sql").statusCode()).isEqualTo(404);
        assertThat(page("/static/agent-guide.md").statusCode()).isEqualTo(404);
        assertThat(page("/chat/no-such-thread").statusCode()).isEqualTo(404);
    }

    @Test
    void modelUserAndPayloadTextIsEscapedOnEveryPage() throws Exception {
        String t = rt.post("/agents/threads", ProviderDouble.JSON.createObjectNode().put("title", INJECTED).toString())
                .json().path("id").asText();
        provider.enqueue(ProviderDouble.Reply.text("Here: " + INJECTED));
        rt.post("/agents/threads/" + t + "/messages", ProviderDouble.JSON.createObjectNode().put("text", INJECTED)
                .toString());
        new Documents(rt.runtime.store()).write(DocumentKind.SOUL, INJECTED);
        rt.post("/agents/webhook-subscriptions", "{\"name\":\"x\",\"description\":" + quoted(INJECTED) + "}");
        for (String path : List.of("/chat/" + t, "/documents", "/webhooks", "/")) {
            String body = page(path).body();
            assertThat(body).as(path).doesNotContain("<img", "<script>alert").contains("&lt;img src=x onerror=&quot;");
        }
    }

    @Test
    void theContextIndicatorShowsOnlyWhenACatalogLayerKnowsTheModel() throws Exception {
        assertThat(page("/chat/" + thread).body()).contains("<span id=\"context\" data-window=\"200000\">");
        rt.post("/agents/threads/" + thread + "/messages", "{\"text\":\"/model model-no-catalog-knows\"}");
        assertThat(page("/chat/" + thread).body()).doesNotContain("id=\"context\"");
    }

    @Test
    void theProfileChangesModelsIntervalAndTimezoneAllOrNothing() throws Exception {
        TestRuntime.Answer ok = rt.patch("/agents/profile", "{\"modelId\":\"claude-sonnet-4-5\",\"heartbeatModelId\":"
                + "\"claude-haiku-4-5\",\"cronModelId\":\"\",\"heartbeatIntervalMinutes\":45,\"timezone\":\"Asia/Tokyo\"}");
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        JsonNode p = rt.get("/agents/profile").json();
        assertThat(p.path("modelId").asText()).isEqualTo("claude-sonnet-4-5");
        assertThat(p.path("heartbeatModelId").asText()).isEqualTo("claude-haiku-4-5");
        assertThat(p.path("cronModelId").isNull()).isTrue();
        assertThat(p.path("heartbeatIntervalMinutes").asInt()).isEqualTo(45);
        assertThat(p.path("timezone").asText()).isEqualTo("Asia/Tokyo");
        for (String bad : List.of("{\"modelId\":\"x\",\"timezone\":\"Mars/Olympus\"}", "{\"modelId\":\"has space\"}",
                "{\"heartbeatIntervalMinutes\":10081}", "{\"heartbeatIntervalMinutes\":-1}",
                "{\"heartbeatIntervalMinutes\":1.5}", "{\"timezone\":7}")) {
            TestRuntime.Answer a = rt.patch("/agents/profile", bad);
            assertThat(a.status()).as(bad).isEqualTo(400);
            assertThat(a.json().path("detail").asText()).as(bad).startsWith("`");
        }
        assertThat(rt.get("/agents/profile").json()).isEqualTo(p);
        assertThat(page("/profile").body()).contains("value=\"claude-sonnet-4-5\"", "value=\"Asia/Tokyo\"");
    }

    @Test
    void thePreviewIsWhatADeliveryOfTheSamplePayloadPosts() throws Exception {
        String prompt = "{repository.full_name} by {pusher.name}: {commits.0.message} {no.such}";
        String sample = Payloads.GITHUB_PUSH;
        TestRuntime.Answer preview = rt.post("/agents/webhook-preview", ProviderDouble.JSON.createObjectNode()
                .put("name", "deploys").put("prompt", prompt).put("deliverOnly", true).put("payload", sample).toString());
        assertThat(preview.status()).as(preview.body()).isEqualTo(200);
        rt.patch("/agents/webhook-receiver", "{\"enabled\":true}");
        rt.post("/agents/webhook-subscriptions", ProviderDouble.JSON.createObjectNode().put("name", "deploys")
                .put("deliverOnly", true).put("deliverTo", "chat").put("prompt", prompt).toString());
        assertThat(rt.post("/agents/webhooks/deploys", sample).status()).isEqualTo(200);
        List<Conversations.Message> delivered = new Conversations(rt.runtime.store()).messages("web:webhook:deploys");
        assertThat(preview.json().path("text").asText()).isEqualTo(delivered.get(0).content())
                .startsWith("acme/shop by ada: ").endsWith(" {no.such}");
        // The link the agent sends for this thread (AGENT_PUBLIC_URL + /chat/<id>) opens it here.
        String link = new PublicLinks("https://agents.example/s1").thread("web:webhook:deploys");
        HttpResponse<String> opened = page(link.substring("https://agents.example/s1".length()));
        assertThat(opened.statusCode()).isEqualTo(200);
        assertThat(opened.body()).contains("data-thread=\"web:webhook:deploys\"", delivered.get(0).content());

        TestRuntime.Answer bad = rt.post("/agents/webhook-preview", "{\"prompt\":\"x\",\"payload\":\"[1]\"}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().path("type").asText()).isEqualTo("urn:stockade:runtime:invalid-sample");
        assertThat(rt.post("/agents/webhook-preview", "{\"prompt\":\"x\"}").status()).isEqualTo(400);
    }

    @Test
    void channelsLinkSlackDestinationsAndFlagOneMainChannel() throws Exception {
        String dm = rt.post("/agents/slack-destinations", "{\"kind\":\"dm\",\"slackId\":\"U024BE7LH\"}").json()
                .path("id").asText();
        String first = rt.post("/agents/slack-destinations", "{\"kind\":\"channel\",\"slackId\":\"C0FIRST1\"}").json()
                .path("id").asText();
        String second = rt.post("/agents/slack-destinations", "{\"kind\":\"channel\",\"slackId\":\"C0SECOND\"}").json()
                .path("id").asText();
        SlackDestinations slack = new SlackDestinations(rt.runtime.store());
        assertThat(slack.broadcastTarget().id()).isEqualTo(first); // team mode without a flag: the oldest channel
        assertThat(rt.patch("/agents/slack-destinations/" + second, "{\"main\":true}").status()).isEqualTo(200);
        assertThat(slack.broadcastTarget().id()).isEqualTo(second);
        assertThat(rt.patch("/agents/slack-destinations/" + first, "{\"main\":true}").status()).isEqualTo(200);
        assertThat(slack.list()).filteredOn(SlackDestinations.Linked::main).extracting(l -> l.destination().id())
                .containsExactly(first);
        assertThat(rt.patch("/agents/slack-destinations/" + dm, "{\"main\":true}").status()).isEqualTo(404);
        assertThat(rt.post("/agents/slack-destinations", "{\"kind\":\"dm\",\"slackId\":\"U1X\",\"main\":true}")
                .status()).isEqualTo(400);
        assertThat(rt.post("/agents/slack-destinations", "{\"kind\":\"room\",\"slackId\":\"C0X1\"}").status())
                .isEqualTo(400);
        assertThat(rt.post("/agents/slack-destinations", "{\"kind\":\"channel\",\"slackId\":\"<b>\"}").status())
                .isEqualTo(400);
        assertThat(page("/channels").body()).contains("<code>C0FIRST1</code>", "<code>U024BE7LH</code>");
        assertThat(rt.get("/agents/slack-destinations").json().path("destinations")).hasSize(3);
    }

    @Test
    void aWriteSentByAnotherSitesPageIsRefused() throws Exception {
        TestRuntime.Answer a = rt.send("PATCH", "/agents/profile", "{\"timezone\":\"Asia/Tokyo\"}",
                "sec-fetch-site", "cross-site");
        assertThat(a.status()).isEqualTo(403);
        assertThat(a.json().path("type").asText()).isEqualTo("urn:stockade:runtime:cross-site");
        // A form post needs no preflight: another site's page could otherwise run a turn or stage a database.
        for (String path : List.of("/agents/threads/" + thread + "/messages", "/agents/import", "/agents/threads")) {
            assertThat(rt.send("POST", path, "{\"text\":\"hi\"}", "sec-fetch-site", "same-site").status()).as(path)
                    .isEqualTo(403);
        }
        assertThat(provider.calls()).isEmpty();
        assertThat(page("/profile", "sec-fetch-site", "cross-site").statusCode()).isEqualTo(200);
        assertThat(rt.send("PATCH", "/agents/profile", "{\"timezone\":\"Asia/Tokyo\"}", "sec-fetch-site",
                "same-origin").status()).isEqualTo(200);
        assertThat(rt.get("/agents/profile").json().path("timezone").asText()).isEqualTo("Asia/Tokyo");
    }

    private static String quoted(String s) {
        return ProviderDouble.JSON.getNodeFactory().textNode(s).toString();
    }

    private static List<String> append(List<String> list, String more) {
        return java.util.stream.Stream.concat(list.stream(), java.util.stream.Stream.of(more)).toList();
    }
}
