package dev.stockade.api.signin;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The one-second wait before a wrong password (or owner token) is answered, as the setup code has it: without holding
 * a thread, and with at most {@value #MAX_WAITING} answers waiting at once, beyond which attempts are refused.
 */
@Singleton
final class WrongAnswerDelay {
    static final Duration DELAY = Duration.ofSeconds(1);
    static final int MAX_WAITING = 64;

    private final Semaphore waiting = new Semaphore(MAX_WAITING);
    private final Executor afterDelay = CompletableFuture.delayedExecutor(DELAY.toMillis(), TimeUnit.MILLISECONDS,
            Runnable::run);

    /** Takes a slot before the check, so a refusal for being busy says nothing about the answer. */
    void enter() {
        if (!waiting.tryAcquire()) {
            throw new ApiProblem(ProblemCode.TOO_MANY_ATTEMPTS, "too many sign-in attempts at once; try again");
        }
    }

    /** A right answer: the slot is freed at once. */
    <T> CompletableFuture<T> now(T answer) {
        waiting.release();
        return CompletableFuture.completedFuture(answer);
    }

    /** A wrong answer: given after the delay. */
    <T> CompletableFuture<T> later(Supplier<T> answer) {
        return CompletableFuture.supplyAsync(() -> {
            waiting.release();
            return answer.get();
        }, afterDelay);
    }
}
