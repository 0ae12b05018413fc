package dev.stockade.api.kernel.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.secrets.UnreadableSecret;
import org.junit.jupiter.api.Test;

/** A secret another replica's key sealed is a deployment fault: 503 {@code secrets_unreadable}, never a bare 500. */
class UnreadableSecretProblemTest {
    @Test
    void theErrorPathAnswersA503NamingTheCause() {
        ApiProblem answered = ProblemErrorProcessor.translate(500, new RuntimeException(new UnreadableSecret()));
        assertThat(answered.code()).isEqualTo(ProblemCode.SECRETS_UNREADABLE);
        assertThat(answered.code().status().getCode()).isEqualTo(503);
        assertThat(answered.detail()).contains("same encryption key");
    }
}
