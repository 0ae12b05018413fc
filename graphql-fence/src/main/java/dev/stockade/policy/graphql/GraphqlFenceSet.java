package dev.stockade.policy.graphql;

import dev.stockade.policy.graphql.internal.CompiledFence;
import dev.stockade.policy.graphql.internal.Frames;
import dev.stockade.policy.graphql.internal.GlobWork;
import dev.stockade.policy.graphql.internal.ParserSetup;
import dev.stockade.policy.graphql.internal.Prepared;
import dev.stockade.policy.graphql.internal.PreparedOperation;
import dev.stockade.policy.model.GraphqlFence;
import java.util.List;

/**
 * The compiled GraphQL fences of one rule, conjoined: a request passes only when every operation it
 * carries passes every fence (composing policies conjoins their fences). Built once, immutable and
 * thread-safe.
 */
public final class GraphqlFenceSet {

    private final CompiledFence[] fences;
    private final ParserSetup setup;
    private final boolean grantsWebSocket;

    private GraphqlFenceSet(CompiledFence[] fences, ParserSetup setup) {
        this.fences = fences;
        this.setup = setup;
        boolean grants = fences.length > 0;
        for (CompiledFence fence : fences) {
            grants &= fence.grantsWebSocket();
        }
        this.grantsWebSocket = grants;
    }

    /**
     * Compiles the conjunction of {@code fences} read under {@code limits}, keeping parsed documents in a
     * cache of its own with the default bound. An empty list admits nothing (fail closed: a graphql rule
     * always has a fence).
     */
    public static GraphqlFenceSet allOf(List<GraphqlFence> fences, GraphqlLimits limits) {
        return allOf(fences, limits, GraphqlDocumentCache.bounded(GraphqlDocumentCache.DEFAULT_MAX_BYTES));
    }

    /**
     * Compiles the conjunction of {@code fences} read under {@code limits}, keeping parsed documents in
     * {@code cache} (share one cache among the fence sets of one program or tenant).
     */
    public static GraphqlFenceSet allOf(List<GraphqlFence> fences, GraphqlLimits limits, GraphqlDocumentCache cache) {
        CompiledFence[] compiled = fences.stream().map(CompiledFence::compile).toArray(CompiledFence[]::new);
        return new GraphqlFenceSet(compiled, new ParserSetup(limits, cache.store()));
    }

    /** Judges one HTTP request: a websocket upgrade by the fences' operation types, anything else in full. */
    public FenceResult judge(GraphqlExchange exchange) {
        if (fences.length == 0) {
            return FenceResult.deny(FenceReason.OPERATION_DENIED, "no graphql fence admits the request");
        }
        if (exchange.websocketUpgrade()) {
            return grantsWebSocket ? FenceResult.allow()
                    : FenceResult.deny(FenceReason.WEBSOCKET_DENIED, "websocket upgrade needs a subscription or * fence");
        }
        return judge(exchange.prepared(setup));
    }

    /**
     * Judges one client text frame of an admitted GraphQL websocket ({@code graphql-transport-ws} or
     * {@code graphql-ws}): operations are judged like a request, housekeeping passes, the rest is denied.
     */
    public FenceResult judgeFrame(String subprotocol, String textFrame) {
        if (fences.length == 0) {
            return FenceResult.deny(FenceReason.OPERATION_DENIED, "no graphql fence admits the request");
        }
        return judge(Frames.prepare(subprotocol, textFrame, setup));
    }

    /** Whether every fence's operation type is subscription or *, which alone grants a websocket upgrade. */
    public boolean grantsWebSocket() {
        return grantsWebSocket;
    }

    private FenceResult judge(Prepared prepared) {
        if (prepared.failure() != null) {
            return prepared.failure();
        }
        List<List<PreparedOperation>> batch = prepared.operations();
        GlobWork work = new GlobWork(setup.limits().maxGlobWork());
        for (int i = 0; i < batch.size(); i++) {
            for (PreparedOperation operation : batch.get(i)) {
                for (CompiledFence fence : fences) {
                    FenceResult denied = fence.judge(operation, work);
                    if (denied != null) {
                        return batch.size() > 1 ? denied.prefixed("batch element " + (i + 1)) : denied;
                    }
                }
            }
        }
        return FenceResult.allow();
    }
}
