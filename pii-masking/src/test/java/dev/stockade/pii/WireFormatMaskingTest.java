package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Each wire format: text fields masked, everything else byte-for-byte the same value. */
class WireFormatMaskingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MAIL = "maria.gonzalez@example.com";

    private static JsonNode mask(WireFormat format, String body) throws Exception {
        MaskedBody m = PiiMaskerTest.ALL.mask(body.replace('\'', '"').getBytes(StandardCharsets.UTF_8), format);
        String out = new String(m.body(), StandardCharsets.UTF_8);
        assertThat(out).doesNotContain(MAIL);
        return JSON.readTree(out);
    }

    @Test
    void anthropicMessages() throws Exception {
        JsonNode n = mask(WireFormat.ANTHROPIC_MESSAGES, "{'model':'claude-x','max_tokens':1024,"
                + "'system':[{'type':'text','text':'user is " + MAIL + "'}],"
                + "'messages':[{'role':'user','content':'mail " + MAIL + "'},"
                + "{'role':'assistant','content':[{'type':'thinking','thinking':'hmm','signature':'sig'},"
                + "{'type':'tool_use','id':'tu_1','name':'send','input':{'to':'" + MAIL + "','owner@example.org':3}}]},"
                + "{'role':'user','content':[{'type':'tool_result','tool_use_id':'tu_1','content':[{'type':'text','text':'sent to " + MAIL + "'}]}]}]}");
        assertThat(n.path("model").asText()).isEqualTo("claude-x");
        assertThat(n.path("max_tokens").asInt()).isEqualTo(1024);
        assertThat(n.at("/system/0/text").asText()).startsWith("user is [EMAIL_");
        assertThat(n.at("/messages/0/content").asText()).startsWith("mail [EMAIL_");
        assertThat(n.at("/messages/1/content/1/input/to").asText()).startsWith("[EMAIL_");
        assertThat(n.at("/messages/1/content/1/input/owner@example.org").asInt()).as("keys are never masked").isEqualTo(3);
        assertThat(n.at("/messages/2/content/0/content/0/text").asText()).startsWith("sent to [EMAIL_");
        assertThat(n.at("/messages/2/content/0/tool_use_id").asText()).isEqualTo("tu_1");
    }

    @Test
    void anthropicCitationsDocumentsAndSearchResultsAreTextAndTheirPointersAreNot() throws Exception {
        JsonNode n = mask(WireFormat.ANTHROPIC_MESSAGES, "{'model':'claude-x','messages':[{'role':'user','content':["
                + "{'type':'document','title':'about " + MAIL + "','context':'from " + MAIL + "',"
                + "'source':{'type':'content','content':[{'type':'text','text':'write " + MAIL + "'}]},"
                + "'citations':{'enabled':true}},"
                + "{'type':'search_result','source':'https://kb.example/a','title':'kb " + MAIL + "',"
                + "'content':[{'type':'text','text':'ask " + MAIL + "'}]}]},"
                + "{'role':'assistant','content':[{'type':'text','text':'cited','citations':["
                + "{'type':'content_block_location','cited_text':'write " + MAIL + "','document_index':0,"
                + "'document_title':'about " + MAIL + "','start_block_index':0,'end_block_index':1},"
                + "{'type':'page_location','cited_text':'p " + MAIL + "','document_index':1,'document_title':null,"
                + "'start_page_number':1,'end_page_number':2},"
                + "{'type':'web_search_result_location','cited_text':'w " + MAIL + "','title':'t " + MAIL + "',"
                + "'url':'https://w.example/a','encrypted_index':'Eo8BCioIAhgB'},"
                + "{'type':'search_result_location','cited_text':'s " + MAIL + "','title':'kb " + MAIL + "',"
                + "'source':'https://kb.example/a','search_result_index':0,'start_block_index':0,"
                + "'end_block_index':1}]}]}]}");
        assertThat(n.at("/messages/0/content/0/title").asText()).startsWith("about [EMAIL_");
        assertThat(n.at("/messages/0/content/0/context").asText()).startsWith("from [EMAIL_");
        assertThat(n.at("/messages/0/content/0/source/content/0/text").asText()).startsWith("write [EMAIL_");
        assertThat(n.at("/messages/0/content/1/title").asText()).startsWith("kb [EMAIL_");
        assertThat(n.at("/messages/0/content/1/content/0/text").asText()).startsWith("ask [EMAIL_");
        JsonNode c = n.at("/messages/1/content/0/citations");
        assertThat(c.at("/0/cited_text").asText()).as("the document's placeholder")
                .isEqualTo(n.at("/messages/0/content/0/source/content/0/text").asText());
        assertThat(c.at("/0/document_title").asText()).isEqualTo(n.at("/messages/0/content/0/title").asText());
        assertThat(c.at("/1/cited_text").asText()).startsWith("p [EMAIL_");
        assertThat(c.at("/1/document_title").isNull()).isTrue();
        assertThat(c.at("/2/cited_text").asText()).startsWith("w [EMAIL_");
        assertThat(c.at("/2/title").asText()).startsWith("t [EMAIL_");
        assertThat(c.at("/3/cited_text").asText()).startsWith("s [EMAIL_");
        assertThat(c.at("/3/title").asText()).isEqualTo(n.at("/messages/0/content/1/title").asText());
        assertThat(c.at("/0/end_block_index").asInt()).isEqualTo(1);
        assertThat(c.at("/2/url").asText()).isEqualTo("https://w.example/a");
        assertThat(c.at("/3/source").asText()).isEqualTo("https://kb.example/a");
        assertThat(c.at("/2/encrypted_index").asText()).isEqualTo("Eo8BCioIAhgB");
    }

    @Test
    void urlsAndSourcesOfCitationsAreLeftAsPointers() throws Exception {
        String body = "{'messages':[{'role':'assistant','content':[{'type':'text','text':'x','citations':["
                + "{'type':'web_search_result_location','cited_text':'w','title':'t','url':'https://w.example/"
                + MAIL + "','encrypted_index':'E'}]}]}]}";
        MaskedBody m = PiiMaskerTest.ALL.mask(body.replace('\'', '"').getBytes(StandardCharsets.UTF_8),
                WireFormat.ANTHROPIC_MESSAGES);
        assertThat(JSON.readTree(m.body()).at("/messages/0/content/0/citations/0/url").asText())
                .isEqualTo("https://w.example/" + MAIL);
    }

    @Test
    void signedThinkingIsLeftIntactSoItsSignatureHolds() throws Exception {
        String body = "{'model':'m','messages':[{'role':'assistant','content':[{'type':'thinking','thinking':'"
                + MAIL + "','signature':'sig'},{'type':'text','text':'ok'}]}]}";
        MaskedBody m = PiiMaskerTest.ALL.mask(body.replace('\'', '"').getBytes(StandardCharsets.UTF_8),
                WireFormat.BEDROCK_INVOKE_ANTHROPIC);
        assertThat(JSON.readTree(m.body()).at("/messages/0/content/0/thinking").asText()).isEqualTo(MAIL);
    }

    @Test
    void signedConverseReasoningIsLeftIntactAndTheTextBesideItIsMasked() throws Exception {
        String body = "{'messages':[{'role':'assistant','content':[{'reasoningContent':{'reasoningText':{'text':'"
                + MAIL + "','signature':'sig'}}},{'text':'to " + MAIL + "'}]}]}";
        MaskedBody m = PiiMaskerTest.ALL.mask(body.replace('\'', '"').getBytes(StandardCharsets.UTF_8),
                WireFormat.BEDROCK_CONVERSE);
        JsonNode n = JSON.readTree(m.body());
        assertThat(n.at("/messages/0/content/0/reasoningContent/reasoningText/text").asText()).isEqualTo(MAIL);
        assertThat(n.at("/messages/0/content/1/text").asText()).startsWith("to [EMAIL_");
    }

    @Test
    void openAiChatWithToolArgumentsAsJsonText() throws Exception {
        JsonNode n = mask(WireFormat.OPENAI_CHAT, "{'model':'gpt-x','temperature':0.2,'messages':["
                + "{'role':'system','content':'owner " + MAIL + "'},"
                + "{'role':'user','name':'maria_g','content':[{'type':'text','text':'hi " + MAIL + "'},{'type':'image_url','image_url':{'url':'https://x/y.png'}}]},"
                + "{'role':'assistant','tool_calls':[{'id':'call_1','type':'function','function':{'name':'lookup','arguments':'{\\'email\\':\\'" + MAIL + "\\',\\'limit\\':5}'}}]},"
                + "{'role':'tool','tool_call_id':'call_1','content':'found " + MAIL + "'}]}");
        assertThat(n.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(n.at("/messages/1/name").asText()).isEqualTo("maria_g");
        assertThat(n.at("/messages/1/content/0/text").asText()).startsWith("hi [EMAIL_");
        assertThat(n.at("/messages/1/content/1/image_url/url").asText()).isEqualTo("https://x/y.png");
        JsonNode args = JSON.readTree(n.at("/messages/2/tool_calls/0/function/arguments").asText());
        assertThat(args.path("email").asText()).startsWith("[EMAIL_");
        assertThat(args.path("limit").asInt()).isEqualTo(5);
        assertThat(n.at("/messages/3/content").asText()).startsWith("found [EMAIL_");
    }

    @Test
    void openAiResponses() throws Exception {
        JsonNode n = mask(WireFormat.OPENAI_RESPONSES, "{'model':'gpt-x','instructions':'reply to " + MAIL + "',"
                + "'input':[{'role':'user','content':[{'type':'input_text','text':'I am " + MAIL + "'}]},"
                + "{'type':'function_call','call_id':'c1','name':'f','arguments':'{\\'q\\':\\'" + MAIL + "\\'}'},"
                + "{'type':'function_call_output','call_id':'c1','output':'mailed " + MAIL + "'},"
                + "{'type':'reasoning','id':'rs_1','encrypted_content':'gAAAAB','summary':[{'type':'summary_text',"
                + "'text':'the user is " + MAIL + "'}]}]}");
        assertThat(n.path("instructions").asText()).startsWith("reply to [EMAIL_");
        assertThat(n.at("/input/3/summary/0/text").asText()).as("a summary is signed by nothing: masked")
                .startsWith("the user is [EMAIL_");
        assertThat(n.at("/input/3/encrypted_content").asText()).isEqualTo("gAAAAB");
        assertThat(n.at("/input/0/content/0/text").asText()).startsWith("I am [EMAIL_");
        assertThat(n.at("/input/1/arguments").asText()).contains("[EMAIL_");
        assertThat(n.at("/input/2/output").asText()).startsWith("mailed [EMAIL_");
        assertThat(n.at("/input/2/call_id").asText()).isEqualTo("c1");
    }

    @Test
    void openAiEmbeddingsMaskTextsAndLeaveTokenArrays() throws Exception {
        JsonNode n = mask(WireFormat.OPENAI_EMBEDDINGS, "{'model':'text-embedding-3-small','input':['a " + MAIL + "','b']}");
        assertThat(n.at("/input/0").asText()).startsWith("a [EMAIL_");
        assertThat(n.at("/input/1").asText()).isEqualTo("b");
        MaskedBody tokens = PiiMaskerTest.ALL.mask("{\"model\":\"e\",\"input\":[[4155, 8675309]]}".getBytes(), WireFormat.OPENAI_EMBEDDINGS);
        assertThat(new String(tokens.body())).isEqualTo("{\"model\":\"e\",\"input\":[[4155,8675309]]}");
    }

    @Test
    void bedrockConverse() throws Exception {
        JsonNode n = mask(WireFormat.BEDROCK_CONVERSE, "{'system':[{'text':'owner " + MAIL + "'}],"
                + "'messages':[{'role':'user','content':[{'text':'mail " + MAIL + "'}]},"
                + "{'role':'assistant','content':[{'toolUse':{'toolUseId':'t1','name':'send','input':{'to':'" + MAIL + "'}}}]},"
                + "{'role':'user','content':[{'toolResult':{'toolUseId':'t1','content':[{'text':'ok " + MAIL + "'},{'json':{'who':'" + MAIL + "'}}]}}]}],"
                + "'inferenceConfig':{'maxTokens':512}}");
        assertThat(n.at("/system/0/text").asText()).startsWith("owner [EMAIL_");
        assertThat(n.at("/messages/1/content/0/toolUse/input/to").asText()).startsWith("[EMAIL_");
        assertThat(n.at("/messages/2/content/0/toolResult/content/0/text").asText()).startsWith("ok [EMAIL_");
        assertThat(n.at("/messages/2/content/0/toolResult/content/1/json/who").asText()).startsWith("[EMAIL_");
        assertThat(n.at("/inferenceConfig/maxTokens").asInt()).isEqualTo(512);
    }

    @Test
    void converseDocumentsSearchResultsAndCitationsAreText() throws Exception {
        JsonNode n = mask(WireFormat.BEDROCK_CONVERSE, "{'messages':[{'role':'user','content':["
                + "{'document':{'format':'txt','name':'roster','context':'from " + MAIL + "','source':{'text':'write "
                + MAIL + "'}}},"
                + "{'document':{'format':'txt','name':'chunks','source':{'content':[{'text':'ask " + MAIL + "'}]}}},"
                + "{'searchResult':{'source':'https://kb.example/a','title':'kb " + MAIL + "','content':[{'text':'see "
                + MAIL + "'}]}}]},"
                + "{'role':'assistant','content':[{'citationsContent':{'content':[{'text':'write " + MAIL + "'}],"
                + "'citations':[{'title':'about " + MAIL + "','source':'https://kb.example/a','sourceContent':[{'text':"
                + "'write " + MAIL + "'}],'location':{'documentChar':{'documentIndex':0,'start':0,'end':26}}}]}}]}]}");
        JsonNode user = n.at("/messages/0/content");
        assertThat(user.at("/0/document/context").asText()).startsWith("from [EMAIL_");
        assertThat(user.at("/0/document/name").asText()).isEqualTo("roster");
        assertThat(user.at("/1/document/source/content/0/text").asText()).startsWith("ask [EMAIL_");
        assertThat(user.at("/2/searchResult/title").asText()).startsWith("kb [EMAIL_");
        assertThat(user.at("/2/searchResult/content/0/text").asText()).startsWith("see [EMAIL_");
        JsonNode cited = n.at("/messages/1/content/0/citationsContent");
        String document = user.at("/0/document/source/text").asText();
        assertThat(document).startsWith("write [EMAIL_");
        assertThat(cited.at("/content/0/text").asText()).isEqualTo(document);
        assertThat(cited.at("/citations/0/sourceContent/0/text").asText()).isEqualTo(document);
        assertThat(cited.at("/citations/0/title").asText()).startsWith("about [EMAIL_");
        assertThat(cited.at("/citations/0/source").asText()).isEqualTo("https://kb.example/a");
        assertThat(cited.at("/citations/0/location/documentChar/end").asInt()).isEqualTo(26);
    }

    @Test
    void aBodyThatIsNotAJsonObjectFailsAsInvalid() {
        for (String bad : new String[] {"not json", "[1,2]", "{\"a\":", ""}) {
            assertThatThrownBy(() -> PiiMaskerTest.ALL.mask(bad.getBytes(), WireFormat.OPENAI_CHAT))
                    .isInstanceOfSatisfying(MaskingException.class,
                            e -> assertThat(e.kind()).isEqualTo(MaskingException.Kind.INVALID_BODY))
                    .hasMessageNotContaining(bad.isEmpty() ? "\u0000" : bad);
        }
    }
}
