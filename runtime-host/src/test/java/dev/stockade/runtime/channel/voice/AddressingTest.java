package dev.stockade.runtime.channel.voice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who the agent answers in a call, and where the toolchain is looked for. */
class AddressingTest {
    private final Addressing ada = Addressing.byName(List.of("Ada", "Stockade Agent"));

    @Test
    void theNameAsAWholeWordInAnyCaseOrAccentAddressesTheAgent() {
        assertThat(ada.addressed("Ada, what did we decide?")).isTrue();
        assertThat(ada.addressed("thanks ADA")).isTrue();
        assertThat(ada.addressed("ok Ádà can you hear me")).isTrue();
        assertThat(ada.addressed("ask the stockade   agent about it")).isTrue();
    }

    @Test
    void otherWordsContainingTheNameDoNot() {
        assertThat(ada.addressed("Adam, what did we decide?")).isFalse();
        assertThat(ada.addressed("we shipped to Canada")).isFalse();
        assertThat(ada.addressed("")).isFalse();
        assertThat(ada.addressed(null)).isFalse();
    }

    @Test
    void anAgentWithoutAnyWakeWordIsAnError() {
        assertThatThrownBy(() -> Addressing.byName(List.of(" ", ""))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theToolchainIsFoundOnPathAndMissingProgramsAreNamed(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String name : List.of("chromium", "chromedriver", "pactl", "pulseaudio")) {
            Files.createSymbolicLink(bin.resolve(name), Path.of("/bin/true"));
        }
        assertThat(VoiceToolchain.find(bin.toString()).missing()).isEmpty();
        assertThat(VoiceToolchain.find("").missing()).containsExactly("chromium", "chromedriver", "pactl",
                "pulseaudio");
        Files.delete(bin.resolve("pactl"));
        assertThat(VoiceToolchain.find(bin.toString()).missing()).containsExactly("pactl");
    }
}
