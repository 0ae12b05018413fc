package dev.stockade.runtime.agent;

import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.provider.ChatModel;
import dev.stockade.runtime.provider.Item;
import dev.stockade.runtime.provider.ModelReply;
import dev.stockade.runtime.provider.ModelRequest;
import java.util.List;

/**
 * Summarises a thread's older history into its single summary, folding the previous summary in, and
 * keeps the last {@code tail} messages verbatim. The tail never starts with a tool result, so a tool
 * call and its result stay together.
 */
public final class Compactor {
    private final Conversations conversations;
    private final ChatModel model;
    private final ModelCatalog catalog;
    private final int thresholdPercent;
    private final int tail;

    public Compactor(Conversations conversations, ChatModel model, ModelCatalog catalog, int thresholdPercent,
            int tail) {
        this.conversations = conversations;
        this.model = model;
        this.catalog = catalog;
        this.thresholdPercent = thresholdPercent;
        this.tail = tail;
    }

    /** The model's context window in tokens, or {@code null} when no catalog layer knows it. */
    public Integer window(String modelId) {
        return catalog.window(modelId);
    }

    /** Occupancy in percent of the model's window for a call of {@code inputTokens}; null when unknown. */
    public Integer occupancy(String modelId, long inputTokens) {
        Integer window = catalog.window(modelId);
        return window == null ? null : (int) Math.min(1000, inputTokens * 100 / window);
    }

    /** After a turn: compacts when occupancy reached the threshold (0 disables; Slack threads exempt). */
    public boolean afterTurn(String threadId, String modelId, long inputTokens) throws Exception {
        Conversations.ThreadInfo t = conversations.thread(threadId);
        Integer occ = occupancy(modelId, inputTokens);
        if (thresholdPercent == 0 || t == null || t.channel().equals("slack") || occ == null
                || occ < thresholdPercent) {
            return false;
        }
        return compact(threadId, modelId);
    }

    /** Compacts now ({@code /compact}); false when there is nothing older than the tail. */
    public boolean compact(String threadId, String modelId) throws Exception {
        Conversations.ThreadInfo t = conversations.thread(threadId);
        List<Conversations.Message> live = conversations.live(threadId);
        int cut = live.size() - tail;
        while (cut > 0 && cut < live.size() && live.get(cut).role().equals("tool_result")) {
            cut--;
        }
        if (cut <= 0) {
            return false;
        }
        StringBuilder transcript = new StringBuilder();
        if (t.summary() != null && !t.summary().isBlank()) {
            transcript.append("Previous summary:\n").append(t.summary()).append("\n\n");
        }
        transcript.append("Conversation to fold in:\n");
        for (Conversations.Message m : live.subList(0, cut)) {
            transcript.append(m.role()).append(": ").append(m.content()).append("\n");
        }
        ModelReply r = model.complete(new ModelRequest(modelId, "Summarise the conversation for your own later use: "
                + "facts, decisions, open tasks, names. Fold the previous summary in; be concise.",
                List.of(new Item.UserText(transcript.toString())), List.of(), 2048), s -> { });
        conversations.compact(threadId, r.text(), live.get(cut - 1).id());
        Log.info("thread.compacted", "thread", threadId, "folded", cut, "kept", live.size() - cut);
        return true;
    }
}
