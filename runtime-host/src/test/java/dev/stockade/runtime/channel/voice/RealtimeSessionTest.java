package dev.stockade.runtime.channel.voice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.config.VoiceEndpoint;
import dev.stockade.runtime.observe.Telemetry;
import dev.stockade.testing.Await;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The realtime session against a double speaking the Realtime API's event protocol. */
class RealtimeSessionTest {
    private static final String KEY = "sk-realtime-test-0123456789";
    private RealtimeDouble server;
    private final ByteArrayOutputStream spoken = new ByteArrayOutputStream();
    private final List<Boolean> heard = new CopyOnWriteArrayList<>();
    private final List<RealtimeUsage> responses = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final RealtimeSession.Listener listener = new RealtimeSession.Listener() {
        @Override
        public void audio(byte[] pcm16) {
            synchronized (spoken) {
                spoken.writeBytes(pcm16);
            }
        }

        @Override
        public void heard(boolean addressed) {
            heard.add(addressed);
        }

        @Override
        public void responded(RealtimeUsage usage) {
            responses.add(usage);
        }

        @Override
        public void failed(String code) {
            failures.add(code);
        }
    };

    @BeforeEach
    void start() throws Exception {
        server = new RealtimeDouble(KEY);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    static VoiceSettings settings(String url, String key, int step) {
        return new VoiceSettings(new VoiceEndpoint(url, key, step), "gpt-realtime-2.1", "marin", "gpt-live-transcribe",
                null, Path.of("unused"), Duration.ofSeconds(300), Duration.ofMinutes(60));
    }

    private RealtimeSession open() throws VoiceRefused {
        return RealtimeSession.open(settings(server.url(), KEY, 1), Addressing.byName(List.of("Ada")), listener,
                Telemetry.off());
    }

    @Test
    void sessionIsConfiguredWithTheModelVoiceAndTranscriberAndAnswersOnlyWhenAddressed() throws Exception {
        try (RealtimeSession s = open()) {
            Await.until("session.update arrives", () -> !server.received.isEmpty());
            assertThat(server.handshakes).containsExactly("/v1/realtime?model=gpt-realtime-2.1 Bearer " + KEY);
            JsonNode session = server.received.get(0).path("session");
            assertThat(server.received.get(0).path("type").asText()).isEqualTo("session.update");
            assertThat(session.path("output_modalities").get(0).asText()).isEqualTo("audio");
            assertThat(session.at("/audio/output/voice").asText()).isEqualTo("marin");
            assertThat(session.at("/audio/input/transcription/model").asText()).isEqualTo("gpt-live-transcribe");
            assertThat(session.at("/audio/input/turn_detection/type").asText()).isEqualTo("server_vad");
            assertThat(session.at("/audio/input/turn_detection/create_response").asBoolean(true)).isFalse();

            byte[] mic = {1, 2, 3, 4, 5, 6, 7, 8};
            s.appendAudio(mic);
            Await.until("audio appended", () -> server.audio().length == mic.length);
            assertThat(server.audio()).containsExactly(mic);

            server.speak("so the numbers look fine, let's move on");
            Await.until("first turn heard", () -> heard.size() == 1);
            server.speak("Ada, can you summarise where we are?");
            Await.until("a response is done", () -> responses.size() == 1);
            assertThat(heard).containsExactly(false, true);
            assertThat(server.types()).containsExactly("session.update", "input_audio_buffer.append",
                    "response.create");
            synchronized (spoken) {
                assertThat(spoken.toByteArray()).containsExactly(RealtimeDouble.REPLY_AUDIO);
            }
            // the transcripts decided, and neither reached the model
            assertThat(server.received.toString()).doesNotContain("numbers", "summarise");
        }
    }

    @Test
    void usageOfEveryResponseIsRecordedAndSummed() throws Exception {
        try (RealtimeSession s = open()) {
            server.speak("Ada?");
            Await.until("first response", () -> responses.size() == 1);
            server.speak("thanks ADA");
            Await.until("second response", () -> responses.size() == 2);
            RealtimeUsage one = new RealtimeUsage(RealtimeDouble.INPUT_TOKENS, RealtimeDouble.OUTPUT_TOKENS,
                    RealtimeDouble.INPUT_AUDIO_TOKENS, RealtimeDouble.OUTPUT_AUDIO_TOKENS, RealtimeDouble.CACHED_TOKENS);
            assertThat(responses).containsExactly(one, one);
            assertThat(s.usage()).isEqualTo(new RealtimeUsage(620, 190, 500, 160, 128));
        }
    }

    @Test
    void serverErrorsAreReportedByCode() throws Exception {
        try (RealtimeSession s = open()) {
            server.fail("rate_limit_exceeded");
            Await.until("the error arrives", () -> !failures.isEmpty());
            assertThat(failures).containsExactly("rate_limit_exceeded");
        }
    }

    @Test
    void aRejectedKeyRefusesTheCallWithoutNamingTheKey() {
        VoiceSettings wrong = settings(server.url(), "sk-wrong-key-9876543210", 1);
        assertThatThrownBy(() -> RealtimeSession.open(wrong, Addressing.byName(List.of("Ada")), listener,
                Telemetry.off()))
                .isInstanceOf(VoiceRefused.class)
                .hasMessageContaining("could not open the realtime session at `ws://127.0.0.1:")
                .hasMessageNotContaining("sk-wrong");
    }

    @Test
    void plainWsIsRefusedForARemoteHostAndWssGetsTheModel() throws Exception {
        assertThatThrownBy(() -> RealtimeSession.target(settings("ws://realtime.example.com/v1/realtime", KEY, 1)))
                .isInstanceOf(VoiceRefused.class).hasMessageContaining("must be wss://");
        assertThatThrownBy(() -> RealtimeSession.target(settings("ws://realtime.example.com/v1/realtime", KEY, 3)))
                .isInstanceOf(VoiceRefused.class);
        assertThat(RealtimeSession.target(settings(VoiceEndpoint.PUBLIC_URL, KEY, 3)))
                .isEqualTo(URI.create("wss://api.openai.com/v1/realtime?model=gpt-realtime-2.1"));
        assertThat(RealtimeSession.target(settings("ws://[::1]:9/v1/realtime", KEY, 1)).getScheme()).isEqualTo("ws");
    }

    @Test
    void anExplicitHttpsProxyIsTunnelledThroughWithConnect() throws Exception {
        try (ConnectProxy proxy = new ConnectProxy()) {
            VoiceSettings s = settings(server.url(), KEY, 1);
            VoiceSettings proxied = new VoiceSettings(s.endpoint(), s.model(), s.voice(), s.transcriptionModel(),
                    URI.create("http://127.0.0.1:" + proxy.port()), s.profileDir(), s.admission(), s.cap());
            try (RealtimeSession session = RealtimeSession.open(proxied, Addressing.byName(List.of("Ada")), listener,
                    Telemetry.off())) {
                Await.until("session.update arrives through the tunnel", () -> !server.received.isEmpty());
            }
            assertThat(proxy.requests).containsExactly("CONNECT 127.0.0.1:" + server.getPort() + " HTTP/1.1");
        }
    }

    @Test
    void aMalformedProxyRefusesVoiceInsteadOfGoingDirect() {
        assertThatThrownBy(() -> VoiceSettings.proxy("not a url"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rather than direct");
        assertThat(VoiceSettings.proxy(null)).isNull();
    }

    @Test
    void noCredentialRefusesTheCall() {
        assertThatThrownBy(() -> RealtimeSession.open(settings(null, null, 0), Addressing.byName(List.of("Ada")),
                listener, Telemetry.off()))
                .isInstanceOf(VoiceRefused.class).hasMessage(VoiceChannel.NO_CREDENTIAL);
    }
}
