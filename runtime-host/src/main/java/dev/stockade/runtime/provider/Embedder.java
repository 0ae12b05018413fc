package dev.stockade.runtime.provider;

/** An embedding endpoint asked for {@link #DIMENSIONS}-dimensional vectors. */
public interface Embedder {
    /** The vector size memory stores; a vector of any other size is refused. */
    int DIMENSIONS = 1024;

    /** Embeds {@code text}; throws when the deployment is missing or ignores the dimensions. */
    float[] embed(String text) throws ProviderException;
}
