package dev.stockade.runtime.agent;

/** Runs one self-contained agent task (a webhook run, a cron task) and returns the final reply. */
@FunctionalInterface
public interface AgentTask {
    /**
     * Runs {@code prompt} as a new turn of the thread {@code threadId} with {@code model} (null for the
     * main model) and returns the reply text to deliver.
     */
    String run(String threadId, String prompt, String model) throws Exception;
}
