package dev.stockade.runtime.provider;

/** A chat provider speaking its real wire format with streaming. */
public interface ChatModel {
    /** Runs one streamed call; text deltas go to {@code onText} as they arrive. */
    ModelReply complete(ModelRequest request, java.util.function.Consumer<String> onText) throws ProviderException;
}
