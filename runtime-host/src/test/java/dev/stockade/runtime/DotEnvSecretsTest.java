package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.config.RuntimeConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A malformed {@code .env} line is reported by file, line, column and (when the line starts with one of the
 * runtime's variables) its name, and never echoed: at start-up and in {@code stockade runtime config}.
 */
class DotEnvSecretsTest {
    /** Each malformed line carries a secret that must not be printed anywhere. */
    private static final List<String> SECRETS = List.of("sk-one-9f8e7d", "bare-secret-two-9f8e7d",
            "sk-three-9f8e7d", "sk-four-9f8e7d", "xoxb-five-9f8e7d", "trailing-six-9f8e7d", "sk-seven-9f8e7d", "open-quote-eight-9f8e7d", "MY_OWN_NAME");

    @TempDir
    Path home;
    Path envFile;

    @BeforeEach
    void writeDotEnv() throws Exception {
        Path data = Files.createDirectories(home.resolve("data"));
        envFile = data.resolve(".env");
        Files.writeString(envFile, String.join("\n",
                "# runtime settings",
                "TEAM_NAME=Blue",
                "AZURE_API_KEY sk-one-9f8e7d",
                "   bare-secret-two-9f8e7d",
                "OPENAI-API-KEY=sk-three-9f8e7d",
                "export OPENAI_API_KEY=\"sk-four-9f8e7d",
                "SLACK_BOT_TOKEN='xoxb-five-9f8e7d' trailing-six-9f8e7d",
                "LANGFUSE_SECRET_KEY: sk-seven-9f8e7d",
                "AGENT_NAME=\"Quoted Name\" # a comment",
                "MY_OWN_NAME='open-quote-eight-9f8e7d",
                ""));
    }

    @Test
    void eachProblemNamesFileLineColumnAndTheVariableButNoValue() {
        RuntimeConfig c = RuntimeConfig.load(Map.of("AGENT_HOME", home.toString()), "/nonexistent-home");
        String f = envFile.toString();
        assertThat(c.problems()).containsExactly(
                f + ":3:1: `AZURE_API_KEY` has no `=`; write `AZURE_API_KEY=value`",
                f + ":4:4: expected `NAME=value`; the line has no `=` (its text is not shown)",
                f + ":5:7: expected `NAME=value`; a name is letters, digits and underscores and does not start "
                        + "with a digit (the line is not shown)",
                f + ":6:23: the quoted value of `OPENAI_API_KEY` has no closing quote, or text other than a `#` "
                        + "comment after it (the value is not shown)",
                f + ":7:17: the quoted value of `SLACK_BOT_TOKEN` has no closing quote, or text other than a `#` "
                        + "comment after it (the value is not shown)",
                f + ":8:1: `LANGFUSE_SECRET_KEY` has no `=`; write `LANGFUSE_SECRET_KEY=value`",
                // a name that is not the runtime's is not printed: the file is the user's, the word may be anything
                f + ":10:13: the quoted value has no closing quote, or text other than a `#` comment after it "
                        + "(the value is not shown)");
        assertThat(c.value("TEAM_NAME")).isEqualTo("Blue");
        assertThat(c.value("AGENT_NAME")).isEqualTo("Quoted Name");
        assertThat(c.value("OPENAI_API_KEY")).isNull();
        String all = String.join("\n", c.problems()) + String.join("\n", c.warnings()) + report(c);
        SECRETS.forEach(s -> assertThat(all).doesNotContain(s));
    }

    @Test
    void neitherStartUpNorTheConfigCommandPrintsAValueOfAMalformedLine() throws Exception {
        for (String command : List.of("serve", "config")) {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-cp", System.getProperty("java.class.path"), "dev.stockade.runtime.RuntimeMain",
                    command));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().put("AGENT_HOME", home.toString());
            pb.environment().put("PORT", "0");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(command).isEqualTo(2);
            assertThat(out).as(command).contains(envFile + ":3:1: `AZURE_API_KEY` has no `=`")
                    .contains(envFile + ":6:23: the quoted value of `OPENAI_API_KEY`")
                    .doesNotContain("Exception");
            SECRETS.forEach(s -> assertThat(out).as(command).doesNotContain(s));
        }
    }

    private static String report(RuntimeConfig c) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ConfigReport.print(c, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
